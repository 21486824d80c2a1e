"""The document -> one self-contained HTML file: Jinja2 renders templates/report.html.j2 with
plotly.js (from the plotly package, included once), the stylesheet, the page's script and
the data inlined. Nothing is fetched when the file is opened: it works offline from disk.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from importlib import resources
from pathlib import Path
from typing import Any

from a320bench.paths import make_parent_folders

TEMPLATE = "report.html.j2"
DATA_OPEN = '<script type="application/octet-stream" id="report-data" data-encoding="gzip+base64">'


def _pct(rate: Any) -> str:
    return "–" if rate is None else f"{rate:.0%}"


def _rate_ci(r: dict[str, Any] | None) -> str:
    """"67% [21%–94%]" from score's {count, rate, ci95}."""
    if not r or r.get("rate") is None:
        return "–"
    lo, hi = r["ci95"]
    return f"{r['rate']:.0%} [{lo:.0%}–{hi:.0%}]"


def _num(x: Any, fmt: str = ".2f") -> str:
    return "–" if x is None else format(x, fmt)


def _pass_hat(agg: dict[str, Any]) -> str:
    ks = agg.get("pass_hat_k") or {}
    if not ks:
        return "–"
    k = max(ks, key=int)
    return f"{ks[k]:.2f} (k={k})"


def _not_valid(statuses: dict[str, int]) -> str:
    return ", ".join(f"{s} {n}" for s, n in statuses.items() if s != "valid")


def embed_data(data: dict[str, Any], episodes_json: list[str]) -> str:
    """The page's data, with `episodes` from their JSON texts: JSON, gzipped, in base64 (the page inflates it with the browser's own
    DecompressionStream). Runs of one scenario repeat their texts, so this is 5-10x smaller than the
    JSON: 10,000 episodes stay a file a browser opens. Base64 cannot close the <script> element."""
    head = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    z = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 31: a gzip stream (header mtime 0: the same bytes each time)
    parts = [z.compress((head[:-1] + ',"episodes":[').encode("utf-8"))]
    for i, text in enumerate(episodes_json):  # streamed: the whole JSON is never one string
        parts.append(z.compress((("," if i else "") + text).encode("utf-8")))
    parts.append(z.compress(b"]}"))
    parts.append(z.flush())
    return base64.b64encode(b"".join(parts)).decode("ascii")


def read_embedded(html: str) -> Any:
    """The data embedded in a page written here (for tests and tools)."""
    start = html.index(DATA_OPEN) + len(DATA_OPEN)
    blob = html[start:html.index("</script>", start)]
    return json.loads(gzip.decompress(base64.b64decode(blob)))


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("templates", name).read_text(encoding="utf-8")


def render(doc: dict[str, Any]) -> str:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
    from plotly.offline import get_plotlyjs

    env = Environment(loader=PackageLoader(__package__, "templates"), undefined=StrictUndefined,
                      autoescape=select_autoescape(default=True, default_for_string=True), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters.update(pct=_pct, rate_ci=_rate_ci, num=_num, pass_hat=_pass_hat, not_valid=_not_valid)
    page = env.get_template(TEMPLATE)
    return page.render(**doc, plotly_js=get_plotlyjs().replace("</script", "<\\/script"),
                       stylesheet=_asset("report.css"), script=_asset("report.js"), data_open=DATA_OPEN,
                       data_blob=embed_data(doc["data"], doc["episodes_json"]))


def write_report(doc: dict[str, Any], path: str | Path) -> int:
    """Write the page via a temp file and a rename (a reader never sees half a page). Returns its size in bytes."""
    html = render(doc).encode("utf-8")
    p = Path(path)
    make_parent_folders(p)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(html)
        os.replace(tmp, p)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return len(html)
