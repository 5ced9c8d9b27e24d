#!/usr/bin/env python3
"""hetscale farm --tasks under mpiexec, checked from what the tasks leave behind.

  check_task_farm.py --hetscale H --mpiexec M [--flags "F1;F2"] SCENARIO [--ranks N]

Scenarios:
  once      every task of a list runs exactly once (its side effect appears
            once), the job log has one end line per task, the run record holds
            every task, and the exit code is 0
  template  --command 'TEMPLATE {}' --inputs FILE: inputs with spaces, quotes
            and $ reach the command as one argument each; --output-dir (made
            when missing) keeps each task's output as DIR/<task>.out
  failures  a task that fails once then succeeds is retried and counted once;
            a task that always fails is reported after --retries K; a task past
            --timeout is ended with its children; the exit code is the number
            of failed tasks; each retry runs on a client the task has not
            failed on (3 clients, 3 attempts: three clients) under the dynamic
            policies (--policy: adaptive+, the default for tasks, or adaptive)
  resume    the server is killed (SIGKILL) after about half of the tasks; the
            run started again with --resume runs the rest: every task ran
            exactly once, apart from those the second run names as in flight
            at the kill

  interrupt SIGINT to mpiexec while tasks run (as Ctrl-C sends it), and
  terminate SIGTERM: mpiexec ends; the server says on one line on stderr
            what was running and how to resume; every task handed out and
            not finished has a `stopped` end line in the job log; 2 s later
            no task's process is left; --resume then runs each task not done
            exactly once, and every task has run to its end once

Nothing here times anything: the checks hold however busy the machine is.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Farm:
    def __init__(self, args, folder):
        self.hetscale = args.hetscale
        self.launcher = [args.mpiexec, "-np", str(args.ranks)] + [f for f in args.flags.split(";") if f]
        self.folder = folder

    def command(self, *arguments):
        return self.launcher + [self.hetscale, "farm"] + list(arguments)

    def run(self, *arguments, timeout=600):
        result = subprocess.run(self.command(*arguments), cwd=self.folder, capture_output=True, text=True,
                                timeout=timeout)
        return result

    def path(self, name):
        return os.path.join(self.folder, name)


def read_log(path):
    with open(path) as log:
        lines = [json.loads(line) for line in log if line.strip()]
    if not lines or lines[0].get("schema") != "hetscale.task-log/1":
        fail(f"{path}: the first line is not the header: {lines[:1]}")
    return lines[0], [line for line in lines[1:] if line["event"] == "end"], \
        [line for line in lines[1:] if line["event"] == "start"]


def effect_counts(path, tasks):
    counts = [0] * tasks
    if os.path.exists(path):
        with open(path) as effects:
            for line in effects:
                if line.strip():
                    counts[int(line)] += 1
    return counts


def check_record(path, tasks_counted, clients):
    with open(path) as f:
        record = json.load(f)
    nodes = record["nodes"]
    if len(nodes) != max(clients, 1):
        fail(f"{path}: {len(nodes)} nodes for {clients} clients")
    work = sum(node["work"] for node in nodes)
    if work != tasks_counted:
        fail(f"{path}: the nodes' work sums to {work}, not the {tasks_counted} task attempts")
    context = record["context"]
    if context["objective"] != "tasks":
        fail(f"{path}: context.objective is {context['objective']}")
    for node in nodes:
        parts = sum(node[k] for k in ("t_comp", "t_comm", "t_setup", "t_idle", "t_other"))
        if parts > record["t_par"] * 1.01 + 1e-6:
            fail(f"{path}: {node['name']}'s parts sum to {parts} s, beyond t_par {record['t_par']} s")
    return record


def once(args, folder):
    farm = Farm(args, folder)
    tasks = 30
    with open(farm.path("tasks.txt"), "w") as f:
        f.write("# a comment, then a blank line\n\n")
        for task in range(tasks):
            f.write(f"sleep 0.0{task % 4}; echo {task} >> effects.txt\n")
    result = farm.run("--tasks", "tasks.txt", "--results", "log.jsonl", "--out", "run.json")
    if result.returncode != 0:
        fail(f"exit code {result.returncode}\n{result.stdout}\n{result.stderr}")
    counts = effect_counts(farm.path("effects.txt"), tasks)
    if counts != [1] * tasks:
        fail(f"each task must run once; side effects per task: {counts}")
    header, ends, starts = read_log(farm.path("log.jsonl"))
    if header["tasks"] != tasks:
        fail(f"the log's header says {header['tasks']} tasks")
    if sorted(end["task"] for end in ends) != list(range(tasks)):
        fail(f"the log's end lines are not one per task: {sorted(end['task'] for end in ends)}")
    if sorted(start["task"] for start in starts) != list(range(tasks)):
        fail("the log's start lines are not one per task")
    for end in ends:
        if end["outcome"] != "succeeded" or end["exit_code"] != 0 or end["end"] < end["start"]:
            fail(f"bad end line {end}")
        if args.ranks > 1 and not 1 <= end["client"] < args.ranks:
            fail(f"client {end['client']} is not one of ranks 1..{args.ranks - 1}: {end}")
    check_record(farm.path("run.json"), tasks, args.ranks - 1)
    # The record reads as a GA farm's does: analyze breaks down every client.
    analysis = subprocess.run([args.hetscale, "analyze", "run.json", "--json"], cwd=folder, capture_output=True,
                              text=True)
    if analysis.returncode != 0:
        fail(f"hetscale analyze run.json: exit code {analysis.returncode}\n{analysis.stderr}")
    nodes = json.loads(analysis.stdout)["speeds"]["nodes"]
    if len(nodes) != max(args.ranks - 1, 1):
        fail(f"hetscale analyze shows {len(nodes)} nodes for {args.ranks - 1} clients")
    # ... and report draws it (the per-node breakdown, the work shares).
    report = subprocess.run([args.hetscale, "report", "run.json", "--out", "report.html"], cwd=folder,
                            capture_output=True, text=True)
    if report.returncode != 0 or "Where each node's time went" not in report.stdout + report.stderr:
        fail(f"hetscale report run.json: exit code {report.returncode}\n{report.stdout}\n{report.stderr}")


def template(args, folder):
    farm = Farm(args, folder)
    inputs = ["plain", "two words", "it's quoted", "$HOME and `date`", ""]
    with open(farm.path("inputs.txt"), "w") as f:
        f.write("\n".join(inputs) + "\n")
    result = farm.run("--command", "printf '[%s]' {}", "--inputs", "inputs.txt", "--output-dir", "outputs/run-1")
    if result.returncode != 0:
        fail(f"exit code {result.returncode}\n{result.stdout}\n{result.stderr}")
    for task, text in enumerate(inputs):
        with open(farm.path(f"outputs/run-1/{task}.out")) as f:
            output = f.read()
        if output != f"[{text}]":
            fail(f"task {task}: the input {text!r} reached the command as {output!r}")
        if not os.path.exists(farm.path(f"outputs/run-1/{task}.err")):
            fail(f"task {task}: no outputs/{task}.err")


def process_exists(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def failures(args, folder):
    farm = Farm(args, folder)
    retries = 2
    commands = [
        "echo 0 >> effects.txt",
        # fails on its first attempt, succeeds on the second
        "if [ -e flaky.mark ]; then echo 1 >> effects.txt; else touch flaky.mark; exit 4; fi",
        "echo 2 >> always.txt; exit 5",  # always fails
        # past the timeout, with a child of its own that must end too
        "sleep 60 & echo $! >> child.pids; echo 3 >> timeout.txt; wait",
        "echo 4 >> always.txt; kill -9 $$",  # always ended by a signal
    ]
    with open(farm.path("tasks.txt"), "w") as f:
        f.write("\n".join(commands) + "\n")
    result = farm.run("--tasks", "tasks.txt", "--results", "log.jsonl", "--retries", str(retries),
                      "--timeout", "2", "--out", "run.json", *(["--policy", args.policy] if args.policy else []))
    if result.returncode != 3:
        fail(f"3 tasks always fail: the exit code must be 3, got {result.returncode}\n{result.stdout}\n{result.stderr}")
    counts = effect_counts(farm.path("effects.txt"), 2)
    if counts != [1, 1]:
        fail(f"the good task and the flaky one must each succeed once: {counts}")
    always = effect_counts(farm.path("always.txt"), 5)
    if always[2] != retries + 1 or always[4] != retries + 1:
        fail(f"a task that always fails runs 1 + {retries} times: {always}")
    _, ends, _ = read_log(farm.path("log.jsonl"))
    by_task = {}
    for end in ends:
        by_task.setdefault(end["task"], []).append(end)
    outcomes = {task: [(end["attempt"], end["outcome"]) for end in ends_of] for task, ends_of in by_task.items()}
    expected = {
        0: [(1, "succeeded")],
        1: [(1, "retrying"), (2, "succeeded")],
        2: [(1, "retrying"), (2, "retrying"), (3, "failed")],
        3: [(1, "retrying"), (2, "retrying"), (3, "failed")],
        4: [(1, "retrying"), (2, "retrying"), (3, "failed")],
    }
    if outcomes != expected:
        fail(f"attempts and outcomes per task: {outcomes}, expected {expected}")
    clients = args.ranks - 1
    for task, ends_of in by_task.items():
        ran_on = [end["client"] for end in sorted(ends_of, key=lambda end: end["attempt"])]
        if len(ends_of) <= clients and len(set(ran_on)) != len(ran_on):
            fail(f"task {task}: a retry ran on a client it had failed on, with another left: clients {ran_on}")
    if not all(end["timed_out"] for end in by_task[3]) or any(end["timed_out"] for end in by_task[2]):
        fail(f"only task 3 times out: {by_task[3]} {by_task[2]}")
    if not all(end["signal"] == 9 and end["exit_code"] == 137 for end in by_task[4]):
        fail(f"task 4 ends by signal 9: {by_task[4]}")
    if not all(end["exit_code"] == 5 and end["signal"] == 0 for end in by_task[2]):
        fail(f"task 2 exits with 5: {by_task[2]}")
    with open(farm.path("child.pids")) as f:
        pids = [int(line) for line in f if line.strip()]
    deadline = time.monotonic() + 10
    while any(process_exists(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in pids if process_exists(pid)]
    if alive:
        fail(f"the timed-out task's children {alive} outlived it")
    record = check_record(farm.path("run.json"), 1 + 2 + 3 * (retries + 1), args.ranks - 1)
    if record["context"]["failed_tasks"] != 3:
        fail(f"context.failed_tasks is {record['context']['failed_tasks']}, not 3")
    for name in ("task 2 failed (exit code 5)", "task 3 failed (timed out)", "task 4 failed (exit code 137)"):
        if name not in result.stderr:
            fail(f"stderr does not say '{name}':\n{result.stderr}")


def rank_zero_in(folder):
    """The pid of MPI rank 0 of the farm running in `folder` (other tests may run farms of their own)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environment = f.read().split(b"\0")
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().split(b"\0")
            here = os.path.realpath(os.readlink(f"/proc/{entry}/cwd")) == os.path.realpath(folder)
        except OSError:
            continue
        rank_zero = b"OMPI_COMM_WORLD_RANK=0" in environment or b"PMI_RANK=0" in environment
        if here and rank_zero and b"farm" in command and os.path.basename(command[0]) == b"hetscale":
            return int(entry)
    return None


def resume(args, folder):
    farm = Farm(args, folder)
    tasks = 40
    with open(farm.path("tasks.txt"), "w") as f:
        for task in range(tasks):
            f.write(f"sleep 0.2; echo {task} >> effects.txt\n")
    first = subprocess.Popen(farm.command("--tasks", "tasks.txt", "--results", "log.jsonl"), cwd=folder,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    killed = False
    while first.poll() is None and time.monotonic() < deadline:
        try:
            with open(farm.path("log.jsonl")) as log:
                ended = sum(1 for line in log if '"event":"end"' in line)
        except FileNotFoundError:
            ended = 0
        if ended >= tasks // 2:
            server = rank_zero_in(folder)
            if server is None:
                fail("found no process of MPI rank 0 to kill")
            os.kill(server, signal.SIGKILL)
            killed = True
            break
        time.sleep(0.02)
    if not killed:
        fail(f"the first run ended (or stalled) before half of its tasks: {first.poll()}")
    try:
        first.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        first.kill()
        fail("mpiexec did not end after its rank 0 was killed")
    time.sleep(0.5)  # a shell of a task in flight ends with its client
    _, ends_before, _ = read_log(farm.path("log.jsonl"))
    done_before = {end["task"] for end in ends_before if end["outcome"] == "succeeded"}
    if not tasks // 2 <= len(done_before) < tasks:
        fail(f"the kill came after {len(done_before)} of {tasks} tasks, not about half")

    second = farm.run("--tasks", "tasks.txt", "--results", "log.jsonl", "--resume")
    if second.returncode != 0:
        fail(f"the resumed run: exit code {second.returncode}\n{second.stdout}\n{second.stderr}")
    in_flight = set()
    for line in second.stderr.splitlines():
        found = re.search(r"tasks were running when the run of .* stopped: ([0-9, ]+);", line)
        if found:
            in_flight = {int(n) for n in found.group(1).split(", ")}
    if f"{len(done_before)} of {tasks} tasks done before" not in second.stderr:
        fail(f"the resumed run does not say how many tasks were done before:\n{second.stderr}")
    counts = effect_counts(farm.path("effects.txt"), tasks)
    for task, count in enumerate(counts):
        if task in in_flight:
            if count not in (1, 2):
                fail(f"task {task}, in flight at the kill, ran {count} times")
        elif count != 1:
            fail(f"task {task} ran {count} times (in flight at the kill: {sorted(in_flight)})")
    _, ends, _ = read_log(farm.path("log.jsonl"))
    succeeded = [end["task"] for end in ends if end["outcome"] == "succeeded"]
    if sorted(succeeded) != list(range(tasks)):
        fail(f"the log must end every task once: {sorted(succeeded)}")
    if any(task in done_before for task in [end["task"] for end in ends[len(ends_before):]]):
        fail("the resumed run ran a task the log recorded as done")
    print(f"killed after {len(done_before)} of {tasks} tasks; in flight then: {sorted(in_flight)}")


def task_processes(token):
    """Pids of processes whose command line holds `token`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    found.append(int(entry))
        except OSError:
            pass
    return found


def stop(args, folder, how):
    farm = Farm(args, folder)
    tasks = 12 if args.ranks > 1 else 4
    token = f"2.{os.getpid()}1"  # a task's sleep, this test's alone, found in the process table
    with open(farm.path("tasks.txt"), "w") as f:
        for task in range(tasks):
            f.write(f"echo {task} >> started.txt; sleep {token}; echo {task} >> effects.txt\n")
    first = subprocess.Popen(farm.command("--tasks", "tasks.txt", "--results", "log.jsonl"), cwd=folder,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while first.poll() is None and time.monotonic() < deadline:
        if len(task_processes(token)) >= 1 and os.path.exists(farm.path("started.txt")):
            break
        time.sleep(0.02)
    if first.poll() is not None or not task_processes(token):
        fail(f"no task was running to stop (exit code {first.poll()})")
    first.send_signal(how)
    try:
        _, stderr = first.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        first.kill()
        fail(f"mpiexec did not end within 60 s of {signal.Signals(how).name}")
    if first.returncode == 0:
        fail(f"mpiexec exited 0 after {signal.Signals(how).name}")
    said = [line for line in stderr.splitlines() if line.startswith("hetscale: farm: stopped by SIG")]
    if len(said) != 1 or "--resume" not in said[0]:
        log = open(farm.path("log.jsonl")).read() if os.path.exists(farm.path("log.jsonl")) else "(no log)"
        fail(f"expected one line saying the farm stopped and how to resume, got (exit code {first.returncode}):\n"
             f"{stderr}\nthe job log:\n{log}")
    time.sleep(2)
    left = task_processes(token)
    if left:
        fail(f"task processes left 2 s after the stop: {left}")
    header, ends, starts = read_log(farm.path("log.jsonl"))
    finished = {end["task"] for end in ends if end["outcome"] == "succeeded"}
    stopped = {end["task"] for end in ends if end["outcome"] == "stopped"}
    handed_out = {start["task"] for start in starts}
    if stopped != handed_out - finished or not stopped:
        fail(f"tasks handed out {sorted(handed_out)}, finished {sorted(finished)}: every other one must have a "
             f"stopped end line, got {sorted(stopped)}")
    if not set(f"{task}" for task in stopped) <= set(said[0].replace(",", " ").replace("(", " ").replace(")", " ")
                                                     .split()):
        fail(f"the line does not name the tasks stopped {sorted(stopped)}: {said[0]}")

    second = farm.run("--tasks", "tasks.txt", "--results", "log.jsonl", "--resume")
    if second.returncode != 0:
        fail(f"the resumed run: exit code {second.returncode}\n{second.stdout}\n{second.stderr}")
    _, ends_after, starts_after = read_log(farm.path("log.jsonl"))
    resumed_starts = [start["task"] for start in starts_after[len(starts):]]
    if sorted(resumed_starts) != sorted(set(range(tasks)) - finished):
        fail(f"--resume must run each task not done once: it started {sorted(resumed_starts)}, "
             f"done before: {sorted(finished)}")
    counts = effect_counts(farm.path("effects.txt"), tasks)
    if counts != [1] * tasks:
        fail(f"every task must run to its end once; ends per task: {counts}")
    print(f"{signal.Signals(how).name}: {len(finished)} tasks done before, stopped: {sorted(stopped)}; "
          f"resumed {len(resumed_starts)}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hetscale", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--policy", default="", help="the farm's --policy (default: the farm's own)")
    parser.add_argument("scenario", choices=["once", "template", "failures", "resume", "interrupt", "terminate"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hetscale-task-farm-") as folder:
        if args.scenario in ("interrupt", "terminate"):
            stop(args, folder, signal.SIGINT if args.scenario == "interrupt" else signal.SIGTERM)
        else:
            globals()[args.scenario](args, folder)
    print(f"{args.scenario}: passed")


if __name__ == "__main__":
    main()
