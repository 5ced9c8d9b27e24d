"""What bench/fpm_gain.py and bench/fpm_modes.py share: the options that say
how to start hetscale under MPI, and running a command that must succeed."""
import subprocess
import sys


def add_launcher_options(parser):
    parser.add_argument("--hetscale", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flags", default="", help="mpiexec's own flags, separated by ';'")


def launcher(args, ranks):
    """mpiexec -np RANKS with the --flags given."""
    return [args.mpiexec, "-np", str(ranks)] + [f for f in args.flags.split(";") if f]


def run(command, who):
    """The command's standard output; on failure the bench stops, saying which command and why."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{who}: {' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout
