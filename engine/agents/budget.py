"""How many tokens a prompt costs, estimated the same way everywhere (prompts, tests, ``bench/``).

No tokenizer ships with the engine (the model is the person's choice), so
the estimate is on the safe side for the 7B models Almanac runs on: a digit
is one token (Qwen's and Llama 3's tokenizers split numbers into single
digits or short groups), a Hangul syllable is one (Korean runs about a token
per syllable), and any other run of characters is ``ceil(len / 4)``
(English prose and JSON average about four characters a token).
"""

from __future__ import annotations

import math
import re

PROMPT_BUDGET = 2500
"""Most prompt tokens one model call may take: about 40 s on a desktop CPU, far from an 8k ``num_ctx``."""

_PIECES = re.compile(r"(?P<one>\d|[\uac00-\ud7a3])|[^\d\uac00-\ud7a3]+")


def tokens(text: str) -> int:
    """Estimated tokens of ``text`` (see the module docstring)."""
    return sum(1 if m.group("one") else math.ceil(len(m.group()) / 4) for m in _PIECES.finditer(text))
