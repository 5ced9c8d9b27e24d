"""What the measure checks share: their verdict and their command line."""
import sys


def verdict(problems):
    """Each problem on its own line on stderr; the exit code (1 when any)."""
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def run(main, usage, arguments):
    """Exit with main(*argv) when argv has `arguments` arguments, else with usage and 2."""
    if len(sys.argv) != arguments + 1:
        print(usage, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
