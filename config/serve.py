"""``make run``: the web server and a Celery worker, stopped together by one Ctrl-C.

    python -m config.serve [--host 0.0.0.0] [--port 8000] [--web-workers N]

The web server is uvicorn (ASGI), ``--web-workers`` processes (default ``WEB_CONCURRENCY``
or one per core). Django runs each request's view in a thread of its own, and passwords are
hashed at a lower priority (``config/hashers.py``), so logins hold up no other page. The
launcher prints the addresses a phone in the room can open (those of this machine that the
server is bound to and ``ALLOWED_HOSTS`` accepts), with a QR code for each, then the demo
logins.

Ctrl-C (SIGINT) or SIGTERM stops both within :data:`STOP_SECONDS`: uvicorn gets SIGTERM and
finishes the requests under way (at most :data:`WEB_GRACE_SECONDS`); the worker gets
SIGQUIT, Celery's cold shutdown, which does not wait for a running job to end. A job is a
row in the database, resolved in chunks of one transaction each: a stop loses at most the
chunk under way, rolled back, and the job stays in the database for a worker to take up
again. Whatever still runs at the deadline is killed (the worker on the filesystem broker
takes five seconds or more to close; on Redis it is gone in two). The children run in
sessions of their own, so the terminal's Ctrl-C reaches the launcher only and the order
above holds.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import socket
import subprocess
import sys
import time

import segno

STOP_SECONDS = 3.0
"""From Ctrl-C to every child gone: well inside the five seconds promised, with room for
make and the launcher to exit after it."""
WEB_GRACE_SECONDS = 2
"""How long uvicorn lets requests under way (and, later, open event streams) finish."""
WORKER_RESTARTS = 5
WORKER_RESTART_WINDOW = 60.0
"""A worker that ends on its own is started again, up to this many times a minute."""

DEMO_LOGINS = [
    ("gm", "the Game Master of 'The Cruise of the Hermes'"),
    ("otoole", "player: Master Gregory O'Toole"),
    ("bosworth", "player: Gunner Bosworth"),
    ("smith", "player: Midshipman Smith"),
]


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m config.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to bind: 0.0.0.0 every IPv4 one (default), :: IPv6 too, "
                             "127.0.0.1 this machine only")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--web-workers", type=int,
                        default=int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 1))
    parser.add_argument("--worker-concurrency", type=int, default=2,
                        help="Celery worker processes")
    parser.add_argument("--no-qr", action="store_true", help="print the addresses only")
    return parser.parse_args(argv)


def room_urls(bind: str, port: int, allowed_hosts: list[str]) -> list[str]:
    """The URLs of this server that another device in the room can open: the machine's
    addresses that ``bind`` serves and ``allowed_hosts`` accepts."""
    from django.http.request import validate_host

    from config.network import host_name, served_addresses

    names = [host_name(a) for a in served_addresses(bind)]
    return [f"http://{name}:{port}/" for name in names if validate_host(name, allowed_hosts)]


def banner(host: str, port: int, urls: list[str], qr: bool) -> str:
    """What ``make run`` prints: where to open the app, a QR code per room address, the demo
    logins and how to stop."""
    lines = ["", "  Quarterdeck is running.", ""]
    if host in ("0.0.0.0", "::", "127.0.0.1"):
        lines.append(f"  On this machine:     http://127.0.0.1:{port}/")
    if urls:
        lines.append("  From a phone or another computer on the same network, open:")
        lines += [f"    {url}" for url in urls]
    else:
        lines.append("  No network address is served (bound to this machine only, or not "
                     "in DJANGO_ALLOWED_HOSTS).")
    if qr:
        for url in urls:
            lines += ["", f"  Scan to open {url}"]
            lines.append(qr_text(url))
    lines += ["", "  Demo logins (password for all: quarterdeck-demo):"]
    lines += [f"    {login:<9} {who}" for login, who in DEMO_LOGINS]
    lines += ["", "  Press Ctrl-C to stop (web server and worker). "
              "'make reset' starts the demo afresh.", ""]
    return "\n".join(lines)


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn in half blocks, for a terminal."""
    out = io.StringIO()
    segno.make(url).terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


def commands(args: argparse.Namespace) -> dict[str, list[str]]:
    """The children to start, by name."""
    python = sys.executable
    return {
        "web": [python, "-m", "uvicorn", "config.asgi:application",
                "--host", args.host, "--port", str(args.port),
                "--workers", str(args.web_workers), "--lifespan", "off",
                "--no-access-log", "--log-level", "warning",
                "--timeout-graceful-shutdown", str(WEB_GRACE_SECONDS)],
        "worker": [python, "-m", "celery", "-A", "config", "--quiet", "worker", "-B",
                   "--loglevel=WARNING", f"--concurrency={args.worker_concurrency}"],
    }


class Supervisor:
    """Starts the children, and stops all of them when one ends or a signal comes."""

    def __init__(self, cmds: dict[str, list[str]]):
        self.cmds = cmds
        self.children: dict[str, subprocess.Popen] = {}
        self.stopping = False

    def start(self) -> None:
        for name, cmd in self.cmds.items():
            self.children[name] = subprocess.Popen(cmd, start_new_session=True)

    def _signal_group(self, child: subprocess.Popen, sig: int) -> None:
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        """Stop every child within :data:`STOP_SECONDS`."""
        if self.stopping:
            return
        self.stopping = True
        deadline = time.monotonic() + STOP_SECONDS
        if "web" in self.children:
            self._signal_group(self.children["web"], signal.SIGTERM)
        if "worker" in self.children:
            # The main process only: it stops its pool processes itself.
            try:
                self.children["worker"].send_signal(signal.SIGQUIT)
            except ProcessLookupError:
                pass
        for child in self.children.values():
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for child in self.children.values():
            # Leftovers (a worker still closing its broker connection, pool processes of
            # a child that is gone): killed, and their group with them.
            self._signal_group(child, signal.SIGKILL)
            child.wait()

    def wait_until_serving(self, host: str, port: int, timeout: float = 60) -> bool:
        """Whether the web server accepts connections on ``port`` within ``timeout`` seconds
        (``False`` at once if it ended)."""
        target = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.children["web"].poll() is None:
            try:
                socket.create_connection((target, port), timeout=0.5).close()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def wait(self) -> int:
        """Block until the web server ends (or a signal stops everything); its exit code. A
        worker that ends on its own is started again (at most :data:`WORKER_RESTARTS` times
        in :data:`WORKER_RESTART_WINDOW` seconds, then everything stops): its jobs are rows
        in the database, which it or the sweep takes up again, so the table plays on."""
        restarts: list[float] = []
        while True:
            for name, child in list(self.children.items()):
                code = child.poll()
                if code is None:
                    continue
                now = time.monotonic()
                restarts = [t for t in restarts if now - t < WORKER_RESTART_WINDOW]
                if name == "worker" and not self.stopping and len(restarts) < WORKER_RESTARTS:
                    restarts.append(now)
                    print(f"quarterdeck: the worker process ended ({code}); starting it "
                          "again.", file=sys.stderr)
                    self.children[name] = subprocess.Popen(self.cmds[name],
                                                           start_new_session=True)
                    continue
                if not self.stopping:
                    print(f"quarterdeck: the {name} process ended ({code}); stopping.",
                          file=sys.stderr)
                self.stop()
                return code
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # Every process reads the settings with the port it serves on (the CSRF origins).
    os.environ["QUARTERDECK_PORT"] = str(args.port)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    supervisor = Supervisor(commands(args))

    def on_signal(signum, frame):
        # A second Ctrl-C must not cut the stop short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        supervisor.stop()
        sys.exit(0)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    supervisor.start()
    if supervisor.wait_until_serving(args.host, args.port):
        urls = room_urls(args.host, args.port, settings.ALLOWED_HOSTS)
        print(banner(args.host, args.port, urls, qr=not args.no_qr), flush=True)
    return supervisor.wait()


if __name__ == "__main__":
    sys.exit(main())
