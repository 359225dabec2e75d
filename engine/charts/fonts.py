"""The Korean-capable font charts are drawn with: NanumGothic, as koreanize-matplotlib bundles it.

The package is never imported: importing it calls its ``koreanize()``, which
rewrites matplotlib's global rcParams (and imports the deprecated distutils).
Only its font file is used, found with ``importlib.util.find_spec`` and added
to matplotlib's font manager once, on the first chart (nothing at import time).
Figures then name the font in their own ``FontProperties``; rcParams are never touched.
"""

from __future__ import annotations

import threading
from importlib.util import find_spec
from pathlib import Path

from matplotlib import font_manager
from matplotlib.font_manager import FontProperties

FAMILY = "NanumGothic"
_FALLBACK = "DejaVu Sans"
"""matplotlib's own font, for any glyph NanumGothic lacks (it is a list with font fallback)."""
_lock = threading.Lock()
_added: Path | None = None


def font_file() -> Path:
    """NanumGothic.ttf inside the koreanize-matplotlib package (a dependency in pyproject.toml)."""
    spec = find_spec("koreanize_matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("koreanize-matplotlib is not installed: charts need its NanumGothic font")
    return Path(next(iter(spec.submodule_search_locations))) / "fonts" / "NanumGothic.ttf"


def korean_font() -> FontProperties:
    """Font properties that draw Korean and Latin text, the font registered on first use."""
    global _added
    with _lock:
        if _added is None:
            path = font_file()
            font_manager.fontManager.addfont(str(path))
            _added = path
    return FontProperties(family=[FAMILY, _FALLBACK])
