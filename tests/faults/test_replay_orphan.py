"""Issue 11, item 9: after ``kill -9`` of the server, its replay process exits instead of living on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

SERVER_STAND_IN = """
import multiprocessing, sys, time
from couyon.server.games import ReplayProcess

if __name__ == "__main__":
    replay = ReplayProcess()
    pool = replay._started()
    pool.submit(time.sleep, 0).result()  # the worker process is up
    print(*(process.pid for process in multiprocessing.active_children()), flush=True)
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waits for its (new) parent to reap it: it is gone
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_the_replay_process_exits_when_its_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER_STAND_IN], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers and all(alive(pid) for pid in workers)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(pid) for pid in workers)
    finally:
        server.kill()
