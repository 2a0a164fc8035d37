#!/usr/bin/env python3
"""tty_ctrlc.py PATTERN LIMIT_S LOG CMD...: runs CMD as the foreground job of a new pseudo-terminal, as a
person at a terminal does, and types Ctrl-C (the byte 0x03: the terminal's line discipline sends SIGINT to
the foreground process group) once CMD's output holds PATTERN; CMD gets LIMIT_S seconds in all, then
SIGKILL. Writes what the terminal showed to LOG and exits with CMD's exit status (128 + N for a signal N)."""
import os
import pty
import select
import signal
import sys
import time

pattern, limit, log, cmd = sys.argv[1].encode(), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
shown, typed, start, status = b"", False, time.time(), None
while status is None:
    if time.time() - start > limit:
        os.killpg(pid, signal.SIGKILL)
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            shown += os.read(fd, 65536)
        except OSError:  # the terminal closed: every process of the job has ended
            pass
    if not typed and pattern in shown:
        os.write(fd, b"\x03")
        typed = True
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(raw)
        status = 128 - status if status < 0 else status
# What the job wrote after its leader ended.
while select.select([fd], [], [], 0.2)[0]:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    shown += data
with open(log, "wb") as f:
    f.write(shown + (b"" if typed else b"\n[tty_ctrlc.py: the pattern never came; no Ctrl-C typed]\n"))
sys.exit(status if typed else 125)
