"""``make run`` as a phone in the room meets it: the real launcher, bound as ``make run``
binds it, answering for every network address it prints, and stopped by one Ctrl-C.

Every request goes to 127.0.0.1; only its Host header (and Origin) names the printed
address, as a phone's request for that address would. No packet leaves the machine.
"""

import http.client
import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import psutil
import pytest

from config import network

ROOT = Path(__file__).resolve().parents[2]


def make_run_command() -> list[str]:
    """The command ``make run`` ends with, as ``make -n`` prints it."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # --no-print-directory: under `make test` this is a sub-make, which would otherwise
    # print "Entering/Leaving directory" around the commands.
    out = subprocess.run(["make", "-n", "--no-print-directory", "run"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    last = shlex.split(out.strip().splitlines()[-1])
    assert last[1:3] == ["-m", "config.serve"], last
    return last[1:]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def get(port, host, path, headers=None, body=None):
    """A request to 127.0.0.1:``port`` for ``host``; (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST" if body is not None else "GET", path, body=body,
                     headers={"Host": host, **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        conn.close()


def cookie(headers, name: str) -> str:
    jar = SimpleCookie()
    for header in headers.get_all("Set-Cookie") or ():
        jar.load(header)
    return jar[name].value


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The launcher on a free port with a fresh embedded demo: (process, port, printed
    lines), one for the module (the last test stops it). SQLite and the filesystem broker
    in a temporary folder, whatever the environment says, so the test touches no one's
    database."""
    tmp_path = tmp_path_factory.mktemp("serve")
    args = make_run_command()
    port = free_port()
    args[args.index("--port") + 1] = str(port)
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ALLOWED_HOSTS",
                        "DJANGO_CSRF_TRUSTED_ORIGINS")}
    env["QUARTERDECK_VAR_DIR"] = str(tmp_path)
    for command in (["migrate", "-v0"], ["load_reference_data"], ["load_demo"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                       capture_output=True)
    proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout],
                     daemon=True).start()
    printed = []
    deadline = time.monotonic() + 60
    while not any("Press Ctrl-C" in line for line in printed):
        assert time.monotonic() < deadline and proc.poll() is None, "".join(printed)
        try:
            printed.append(lines.get(timeout=0.5))
        except queue.Empty:
            pass
    yield proc, port, printed
    if proc.poll() is None:
        for child in psutil.Process(proc.pid).children(recursive=True):
            child.kill()
        proc.kill()
        proc.wait()


def test_make_run_binds_every_address_and_serves_each_one_it_prints(served):
    proc, port, printed = served
    text = "".join(printed)
    urls = re.findall(r"^\s+(http://\S+/)$", text, flags=re.M)
    room = [u for u in urls if not u.startswith("http://127.0.0.1")]
    expected = [f"http://{network.host_name(a)}:{port}/"
                for a in network.served_addresses("0.0.0.0")]
    assert room == expected, text
    assert f"http://127.0.0.1:{port}/" in text and "quarterdeck-demo" in text
    assert text.count("Scan to open") == len(room)

    for host in [f"127.0.0.1:{port}", *(u[len("http://"):-1] for u in room)]:
        status, headers, _ = get(port, host, "/")
        assert status == 302 and headers["Location"].startswith("/accounts/login/"), host
        status, headers, body = get(port, host, "/accounts/login/")
        assert status == 200 and "csrfmiddlewaretoken" in body, host
        # A phone logs in: the CSRF check accepts the address it came by.
        token = cookie(headers, "csrftoken")
        form = urlencode({"username": "otoole", "password": "quarterdeck-demo",
                          "csrfmiddlewaretoken": token})
        status, headers, _ = get(port, host, "/accounts/login/", body=form, headers={
            "Origin": f"http://{host}", "Referer": f"http://{host}/accounts/login/",
            "Cookie": f"csrftoken={token}",
            "Content-Type": "application/x-www-form-urlencoded"})
        assert status == 302 and headers["Location"] == "/", host
        session = cookie(headers, "sessionid")
        status, _, body = get(port, host, "/", headers={"Cookie": f"sessionid={session}"})
        assert status == 200 and "The Cruise of the Hermes" in body, host

    status, _, _ = get(port, "127.0.0.1", "/static/css/quarterdeck.css")
    assert status == 200
    # A name that is not this machine's is still refused.
    status, _, _ = get(port, "quarterdeck.example.com", "/accounts/login/")
    assert status == 400


def log_in(port, host, username) -> str:
    """The session cookie of ``username`` after the login form, asked by ``host``."""
    _, headers, _ = get(port, host, "/accounts/login/")
    token = cookie(headers, "csrftoken")
    form = urlencode({"username": username, "password": "quarterdeck-demo",
                      "csrfmiddlewaretoken": token})
    status, headers, _ = get(port, host, "/accounts/login/", body=form, headers={
        "Origin": f"http://{host}", "Referer": f"http://{host}/accounts/login/",
        "Cookie": f"csrftoken={token}", "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302
    return cookie(headers, "sessionid")


def test_players_see_the_sites_own_error_pages_and_the_server_streams(served):
    """``make run`` sets no DJANGO_DEBUG: Django's technical 404 (every URL of the site) is
    for a developer who asks for it; the player gets the site's page. And the server sends a
    stream's first lines before it ends (ASGI, not buffered)."""
    _, port, _ = served
    host = f"127.0.0.1:{port}"
    session = {"Cookie": f"sessionid={log_in(port, host, 'otoole')}"}
    for path in ("/combat/999999/", "/no/such/page/"):
        status, _, body = get(port, host, path, headers=session)
        assert status == 404 and "Not found" in body and "Back to your campaigns" in body
        assert "URLconf" not in body and "Traceback" not in body and "DEBUG" not in body
    # A buffered stream would send nothing until it ends, which it never does: the read
    # would time out.
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/combat/campaign/1/events/", headers={"Host": host, **session})
        response = conn.getresponse()
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/event-stream")
        assert response.read(13) == b"retry: 1000\n\n"
    finally:
        conn.close()


def _running(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_worker_that_dies_is_started_again_and_the_site_stays_up(served):
    """A worker can die on its own (as kombu's filesystem broker made it do, reading a message
    still being written: config.broker); the launcher starts another, the web server serves
    on, and the jobs (rows in the database) are taken up again."""
    proc, port, _ = served

    def workers():
        return [c for c in psutil.Process(proc.pid).children()
                if "celery" in " ".join(c.cmdline())]

    [worker] = workers()
    pool = worker.children(recursive=True)
    worker.kill()
    worker.wait(timeout=10)
    for child in pool:  # a pool process outlives a worker killed outright: not the launcher's
        child.kill()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not workers():
        time.sleep(0.2)
    assert [w.pid for w in workers()] not in ([], [worker.pid])
    assert proc.poll() is None
    socket.create_connection(("127.0.0.1", port), timeout=2).close()


# Keep last: it stops the module's server.
def test_ctrl_c_stops_web_server_and_worker(served):
    proc, port, _ = served
    children = psutil.Process(proc.pid).children(recursive=True)
    names = " ".join(" ".join(c.cmdline()) for c in children)
    assert "uvicorn" in names and "celery" in names
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)  # it waits STOP_SECONDS for its children, then kills them
    gone, alive = psutil.wait_procs(children, timeout=0.5)
    # A zombie has exited; it waits only for a PID 1 that reaps (a container's may not).
    assert not [p for p in alive if _running(p)], alive
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
