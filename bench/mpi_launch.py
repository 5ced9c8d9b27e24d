"""What the bench scripts share: the options that say how to start hetscale
under MPI, running a command that must succeed, and the command line of the
scripts that take [--check] [--runs K] and a work folder."""
import os
import subprocess
import sys
import tempfile


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


def check_runs_and_work(usage, runs, prefix):
    """[--check] [--runs K] A B [WORK_DIR] from the command line: whether to
    check, the runs, the two positional arguments and the work folder (made;
    a new temporary one when not given)."""
    arguments = sys.argv[1:]
    check = "--check" in arguments
    arguments = [a for a in arguments if a != "--check"]
    if "--runs" in arguments:
        at = arguments.index("--runs")
        runs = int(arguments[at + 1])
        del arguments[at:at + 2]
    if len(arguments) not in (2, 3):
        raise SystemExit(usage)
    work = arguments[2] if len(arguments) == 3 else tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    return check, runs, arguments[0], arguments[1], work
