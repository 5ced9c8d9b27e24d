#!/usr/bin/env python3
"""Opens an HTML report in headless Chromium and checks that every figure rendered.

Usage: check_report_in_browser.py REPORT.html --expected-figures N
           [--screenshot OUT.png] [--chromium PATH] [--timeout SECONDS] [--min-ink FRACTION]
           [--heading TEXT]... [--table TEXT]...

The screenshot is the page as a reader first sees it, its folded parts
(<details>) closed; the figures are then checked with every part opened, as a
reader who opens them sees them. --heading: a section heading (h2) holding
TEXT must be in the page; --table: a table whose caption or header holds TEXT
(each checked in the DOM); --distinct-headings: no two section headings alike.

A figure is an <img class="figure">. The report passes when the page has
exactly N of them, each loaded (natural size > 0) and drawn non-blank, the
page logged no console error or uncaught exception, and it requested nothing
but file: and data: URLs. Non-blank: in a screenshot of the figure's region
(a clip of the page, inside the image's border and padding) at least 1 % of
the pixels (--min-ink) differ clearly from the most common colour, and there
are more than 2 colours; a sparse gnuplot plot has about 2 %. Prints one line
per figure and a summary; exits 0 if the report passes, 1 otherwise (with the
reasons), always within --timeout (60 s), leaving no Chromium running.
Python's standard library only: the Chrome DevTools Protocol over a minimal
websocket client, PNG decoding with zlib.
"""

import argparse
import base64
import http.client
import json
import math
import os
import pathlib
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking"]
WINDOW_SIZE = (1280, 1024)
# A pixel is ink when one of its channels differs from the background by more.
INK_CHANNEL_DIFFERENCE = 48


class CheckError(Exception):
    """The check could not be carried out (no browser, no page, timeout)."""


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds
        self.seconds = seconds

    def remaining(self):
        left = self.end - time.monotonic()
        if left <= 0:
            raise CheckError(f"timed out after {self.seconds:g} s")
        return left


class WebSocket:
    """A websocket client, enough for the DevTools protocol: text frames out, whole messages in."""

    def __init__(self, url, deadline):
        if not url.startswith("ws://"):
            raise CheckError(f"unexpected DevTools address {url}")
        hostport, _, path = url[len("ws://"):].partition("/")
        host, _, port = hostport.rpartition(":")
        self.deadline = deadline
        self.sock = socket.create_connection((host, int(port)), timeout=deadline.remaining())
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = bytearray()
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 101 " not in status + " ":
            raise CheckError(f"DevTools websocket refused: {status}")

    def _fill(self):
        self.sock.settimeout(self.deadline.remaining())
        try:
            chunk = self.sock.recv(1 << 20)
        except socket.timeout:
            raise CheckError(f"timed out after {self.deadline.seconds:g} s waiting for Chromium")
        if not chunk:
            raise CheckError("Chromium closed the DevTools connection")
        self.buffer += chunk

    def _take(self, count):
        while len(self.buffer) < count:
            self._fill()
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.settimeout(self.deadline.remaining())
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def receive(self):
        message = bytearray()
        while True:
            first, second = self._take(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._take(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._take(8))[0]
            mask = self._take(4) if second & 0x80 else None
            payload = self._take(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise CheckError("Chromium closed the DevTools connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class DevTools:
    """One page target: commands wait for their reply; events are kept in order."""

    def __init__(self, url, deadline):
        self.socket = WebSocket(url, deadline)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if "method" in message:
                self.events.append(message)
            elif message.get("id") == self.next_id:
                if "error" in message:
                    raise CheckError(f"{method} failed: {message['error'].get('message')}")
                return message.get("result", {})

    def wait_for_event(self, method):
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event["method"] == method:
                    return event
            seen = len(self.events)
            self.events.append(json.loads(self.socket.receive()))

    def close(self):
        self.socket.close()


def decode_png(data):
    """(width, height, rows of RGB(A) bytes, bytes per pixel) of an 8-bit non-interlaced PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise CheckError("the screenshot is not a PNG")
    position, compressed = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        elif kind == b"IEND":
            break
    if depth != 8 or colour not in (2, 6) or interlace:
        raise CheckError(f"unsupported screenshot PNG (depth {depth}, colour type {colour})")
    pixel = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(compressed))
    stride = width * pixel
    rows, previous = [], bytearray(stride)
    low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for x in range(pixel, stride):
                line[x] = (line[x] + line[x - pixel]) & 0xFF
        elif kind == 2:
            # Bytewise sum modulo 256 on whole rows as integers: no carry crosses a byte.
            a, b = int.from_bytes(line, "big"), int.from_bytes(previous, "big")
            line = bytearray((((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big"))
        elif kind == 3:
            for x in range(stride):
                left = line[x - pixel] if x >= pixel else 0
                line[x] = (line[x] + ((left + previous[x]) >> 1)) & 0xFF
        elif kind == 4:
            for x in range(stride):
                a = line[x - pixel] if x >= pixel else 0
                b = previous[x]
                c = previous[x - pixel] if x >= pixel else 0
                estimate = a + b - c
                pa, pb, pc = abs(estimate - a), abs(estimate - b), abs(estimate - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows, pixel


def ink(png):
    """(fraction of pixels that differ clearly from the most common colour, number of colours)."""
    width, height, rows, pixel = decode_png(png)
    colours = Counter()
    for row in rows:
        colours.update(zip(row[0::pixel], row[1::pixel], row[2::pixel]))
    if not colours:
        return 0.0, 0
    background = colours.most_common(1)[0][0]
    inked = sum(count for colour, count in colours.items()
                if max(abs(a - b) for a, b in zip(colour, background)) > INK_CHANNEL_DIFFERENCE)
    return inked / (width * height), len(colours)


# Every img.figure: load state, natural size, caption, and its content box
# (inside border and padding) in page coordinates.
LIST_FIGURES = """
Array.from(document.querySelectorAll('img.figure')).map(img => {
  const box = img.getBoundingClientRect();
  const style = getComputedStyle(img);
  const px = name => parseFloat(style.getPropertyValue(name)) || 0;
  const left = box.left + window.scrollX + px('border-left-width') + px('padding-left');
  const top = box.top + window.scrollY + px('border-top-width') + px('padding-top');
  const figure = img.closest('figure');
  const caption = figure && figure.querySelector('figcaption');
  return {
    complete: img.complete, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
    x: left, y: top,
    width: box.width - px('border-left-width') - px('padding-left') - px('border-right-width') - px('padding-right'),
    height: box.height - px('border-top-width') - px('padding-top') - px('border-bottom-width') - px('padding-bottom'),
    caption: caption ? caption.textContent.replace(/\\s+/g, ' ').trim() : ''
  };
})
"""

# After the load event: fonts loaded and two frames painted.
SETTLE = """
document.fonts.ready.then(() => new Promise(done =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))
"""


def evaluate(devtools, expression, await_promise=False):
    result = devtools.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=await_promise)
    if "exceptionDetails" in result:
        raise CheckError(f"evaluating in the page failed: {result['exceptionDetails'].get('text')}")
    return result["result"].get("value")


def start_chromium(chromium, profile, deadline):
    log = open(profile / "chromium-stderr.log", "wb")
    process = subprocess.Popen(
        [chromium, *CHROMIUM_FLAGS, "--remote-debugging-port=0", f"--user-data-dir={profile}",
         f"--window-size={WINDOW_SIZE[0]},{WINDOW_SIZE[1]}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    port_file = profile / "DevToolsActivePort"
    while True:
        if process.poll() is not None:
            tail = (profile / "chromium-stderr.log").read_text(errors="replace")[-2000:]
            raise CheckError(f"Chromium exited with code {process.returncode} before it was ready:\n{tail}")
        if port_file.exists():
            lines = port_file.read_text().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit():
                return process, int(lines[0])
        deadline.remaining()
        time.sleep(0.05)


def page_target(port, deadline):
    """The websocket address of the browser's page (about:blank)."""
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=deadline.remaining())
        try:
            connection.request("GET", "/json/list")
            targets = json.loads(connection.getresponse().read())
        finally:
            connection.close()
        for target in targets:
            if target.get("type") == "page" and "webSocketDebuggerUrl" in target:
                return target["webSocketDebuggerUrl"]
        time.sleep(0.05)


def stop_chromium(process):
    """Stops Chromium and every process it started (its own process group)."""
    if process is None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=5)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def problems_in(events):
    """Console errors and non-local requests among the DevTools events."""
    console, requests = [], []
    for event in events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
            console.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            console.append(f"uncaught exception: {text.splitlines()[0] if text else '?'}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            console.append(f"log error ({entry.get('source')}): {entry.get('text')}"
                           + (f" [{entry['url']}]" if entry.get("url") else ""))
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            if not url.startswith(("file:", "data:")):
                requests.append(url)
    return console, requests


def check(report, expected, screenshot, chromium, min_ink, deadline, headings_expected=(), tables_expected=(),
          distinct_headings=False):
    """Returns the list of failures (empty if the report passes), printing what it sees."""
    profile = pathlib.Path(tempfile.mkdtemp(prefix="hetscale-chromium-"))
    process = devtools = None
    try:
        process, port = start_chromium(chromium, profile, deadline)
        devtools = DevTools(page_target(port, deadline), deadline)
        for domain in ("Runtime", "Log", "Page", "Network"):
            devtools.call(f"{domain}.enable")
        navigation = devtools.call("Page.navigate", url=report.as_uri())
        if navigation.get("errorText"):
            raise CheckError(f"cannot open {report}: {navigation['errorText']}")
        devtools.wait_for_event("Page.loadEventFired")
        evaluate(devtools, SETTLE, await_promise=True)

        if screenshot:
            size = devtools.call("Page.getLayoutMetrics")["cssContentSize"]
            shot = devtools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                 clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                                       "scale": 1})
            screenshot.write_bytes(base64.b64decode(shot["data"]))

        failures = []
        headings = evaluate(devtools, "[...document.querySelectorAll('h2')].map(h => h.textContent)")
        tables = evaluate(devtools, "[...document.querySelectorAll('table')].map(t => "
                                    "(t.caption ? t.caption.textContent : '') + ' | ' + "
                                    "[...t.querySelectorAll('th')].map(th => th.textContent).join(' | '))")
        if distinct_headings and len(set(headings)) != len(headings):
            failures.append(f"two sections have one heading: {sorted(h for h in headings if headings.count(h) > 1)}")
        for text in headings_expected:
            if not any(text in heading for heading in headings):
                failures.append(f"no section heading holds {text!r}; headings: {headings}")
        for text in tables_expected:
            if not any(text in table for table in tables):
                failures.append(f"no table's caption or header holds {text!r}")
        print(f"{len(headings)} section headings, {len(tables)} tables")

        evaluate(devtools, "document.querySelectorAll('details').forEach(d => d.open = true)")
        evaluate(devtools, SETTLE, await_promise=True)
        figures = evaluate(devtools, LIST_FIGURES)
        for number, figure in enumerate(figures, 1):
            natural = f"{figure['naturalWidth']}x{figure['naturalHeight']}"
            shown = f"{figure['width']:.0f}x{figure['height']:.0f}"
            loaded = figure["complete"] and figure["naturalWidth"] > 0 and figure["naturalHeight"] > 0
            # The figure's own region of the page, whole pixels inside its content box, cut
            # out by the screenshot's clip; encoded for speed (rows of the filter decoded fastest).
            left, top = math.ceil(figure["x"]), math.ceil(figure["y"])
            width = math.floor(figure["x"] + figure["width"]) - left
            height = math.floor(figure["y"] + figure["height"]) - top
            fraction, colours = 0.0, 0
            if loaded and width >= 1 and height >= 1:
                shot = devtools.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                     optimizeForSpeed=True,
                                     clip={"x": left, "y": top, "width": width, "height": height, "scale": 1})
                fraction, colours = ink(base64.b64decode(shot["data"]))
            blank = loaded and (fraction < min_ink or colours <= 2)
            caption = figure["caption"] or "(no caption)"
            verdict = "did not load" if not loaded else "blank" if blank else "ok"
            print(f"figure {number}: {caption!r} natural {natural}, shown {shown}, "
                  f"ink {100 * fraction:.1f} %, {colours} colours: {verdict}")
            if not loaded:
                failures.append(f"figure {number} ({caption}) did not load (natural size {natural})")
            elif blank:
                failures.append(f"figure {number} ({caption}) is blank "
                                f"(ink {100 * fraction:.2f} %, {colours} colours, shown {shown})")
        if len(figures) != expected:
            failures.insert(0, f"{len(figures)} figures, expected {expected}")

        # Late messages: a last round trip collects what the page logged meanwhile.
        evaluate(devtools, "0")
        console, requests = problems_in(devtools.events)
        failures += [f"console error: {text}" for text in console]
        failures += [f"network request: {url}" for url in requests]
        print(f"{len(figures)} figures (expected {expected}), {len(console)} console errors, "
              f"{len(requests)} network requests")
        return failures
    finally:
        if devtools:
            devtools.close()
        stop_chromium(process)
        shutil.rmtree(profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=pathlib.Path, help="the HTML report")
    parser.add_argument("--expected-figures", type=int, required=True, metavar="N")
    parser.add_argument("--screenshot", type=pathlib.Path, metavar="OUT.png",
                        help="save a full-page screenshot here")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium", metavar="PATH")
    parser.add_argument("--timeout", type=float, default=60, metavar="SECONDS",
                        help="give up after this long (default 60)")
    parser.add_argument("--min-ink", type=float, default=0.01, metavar="FRACTION",
                        help="a figure with a smaller fraction of ink pixels is blank (default 0.01)")
    parser.add_argument("--heading", action="append", default=[], metavar="TEXT",
                        help="a section heading holding TEXT must be in the page")
    parser.add_argument("--table", action="append", default=[], metavar="TEXT",
                        help="a table whose caption or header holds TEXT must be in the page")
    parser.add_argument("--distinct-headings", action="store_true",
                        help="no two section headings may be the same")
    arguments = parser.parse_args()

    # A SIGTERM (a test's timeout) still stops Chromium and removes its profile.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("check_report_in_browser: terminated"))
    report = arguments.report.resolve()
    started = time.monotonic()
    try:
        if not report.is_file():
            raise CheckError(f"no such file: {arguments.report}")
        failures = check(report, arguments.expected_figures, arguments.screenshot,
                         arguments.chromium, arguments.min_ink, Deadline(arguments.timeout), arguments.heading,
                         arguments.table, arguments.distinct_headings)
    except (CheckError, OSError) as error:
        print(f"FAIL: {arguments.report}: {error}")
        return 1
    seconds = time.monotonic() - started
    if failures:
        for failure in failures:
            print(f"FAIL: {failure}")
        print(f"{arguments.report}: FAILED ({len(failures)} problems, {seconds:.1f} s)")
        return 1
    print(f"{arguments.report}: every figure rendered ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
