"""Look at the built docs site in a headless Chromium, served and opened from disk.

    python tools/check_site.py site

Served (a local HTTP server on the site folder), each search of ``SEARCHES`` must list the
reference entry it names: the search box is typed into through Material's ``?q=`` address,
and the page is read once the search has run (the server holds one extra image of every page
back for a few seconds, so that the page's load, when Chromium dumps it, comes after the
search index is read). Opened from disk (``file://``), the home page must show its
navigation, and every link in it must name a page file that exists, so that a reader who
opens ``site/index.html`` without a server can move around.

Exits 1 with the failures listed; exits 0 with a note where no Chromium is installed (the
docs session then says the site was not looked at). Standard library only.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import io
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

#: A search, and the link fragment of the entry it must list (a bare name, a dotted path's
#: last part, an old keyword name that points to what replaced it).
SEARCHES = {
    "clip": "#jaxcompatnumpyclip",
    "make_mesh": "#jaxcompatmake_mesh",
    "a_min": "#jaxcompatnumpyclip-keywords",
    "jax.numpy.concat": "#jaxcompatnumpyconcat",
}
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
#: How long the held-back image waits: the search worker reads the index well within it.
HOLD_SECONDS = 4.0


class _HoldingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site, each HTML page with one more image that arrives late."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/__held"):
            time.sleep(HOLD_SECONDS)
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_bytes().replace(b"</body>", b'<img src="/__held" alt=""></body>')
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def _dump(browser: str, url: str) -> str:
    """The page's DOM after its load, as Chromium's headless mode prints it."""
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return done.stdout


def check_served(browser: str, site: Path) -> list[str]:
    handler = functools.partial(_HoldingHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    failures = []
    try:
        for query, fragment in SEARCHES.items():
            dom = _dump(browser, f"{base}/index.html?q={query}")
            links = re.findall(r'<a href="([^"]*)" class="md-search-result__link"', dom)
            if not any(link.endswith(fragment) for link in links):
                shown = ", ".join(links[:5]) or "no result"
                failures.append(f"served: a search of {query!r} lists no {fragment} ({shown})")
            else:
                print(f"served: a search of {query!r} lists {fragment} ({len(links)} results)")
    finally:
        server.shutdown()
    return failures


def check_from_disk(browser: str, site: Path) -> list[str]:
    index = site.resolve() / "index.html"
    dom = _dump(browser, index.as_uri())
    nav = re.findall(r'<a href="([^"]*)" class="md-nav__link', dom)
    if not nav:
        return ["from disk: the home page shows no navigation"]
    failures = []
    for link in nav:
        target = urlparse(link)
        if target.scheme not in ("", "file") or not target.path:
            continue
        path = Path(unquote(target.path)) if target.scheme else index.parent / target.path
        if path.is_dir() or not path.is_file():
            failures.append(f"from disk: the navigation link {link} opens no page file")
    if not failures:
        print(f"from disk: the home page's {len(nav)} navigation links each open a page file")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the built site folder")
    args = parser.parse_args()
    browser = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if browser is None:
        print("check_site: no Chromium is installed: the site was not looked at in a browser")
        return 0
    if not (args.site / "index.html").is_file():
        print(f"check_site: {args.site} holds no built site (index.html)", file=sys.stderr)
        return 2
    failures = check_served(browser, args.site) + check_from_disk(browser, args.site)
    for failure in failures:
        print(f"check_site: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
