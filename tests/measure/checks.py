"""What the measure checks share: their verdict, their command line, a
record's devices."""
import json
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


def one_device_a_rank(record, ranks):
    """The record's offload part and each rank's one device (None where a rank
    has not exactly one), with the problems found; offload None when the
    record has no offload part."""
    with open(record) as f:
        offload = json.load(f)["context"].get("offload")
    if not offload:
        return None, [], ["the record has no offload part"]
    devices, problems = [], []
    for rank in range(ranks):
        found = offload["devices"][rank]
        devices.append(found[0] if len(found) == 1 else None)
        if len(found) != 1:
            problems.append(f"rank {rank}: {len(found)} devices, not 1")
    return offload, devices, problems
