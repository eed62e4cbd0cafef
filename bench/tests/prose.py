"""What the limits tests call a sentence, defined once. Markdown is read as a person reads it: code blocks are left out
(commands are not prose), an inline code span counts as one word, a link as its text. Each heading, list item and
table cell is read on its own, since a reader takes each as a unit; within one, a sentence ends at '.', '!' or '?'
followed by a space and a capital letter, a digit, code or an opening mark."""
import re

FENCED = re.compile(r"^ *```.*?^ *```[^\n]*$", re.S | re.M)
COMMENT = re.compile(r"<!--.*?-->", re.S)
INLINE_CODE = re.compile(r"`[^`\n]+`")
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
URL = re.compile(r"https?://\S+")
ITEM = re.compile(r"^(#+|[-*+]|\d+\.|>)\s+(.*)")
RULE = re.compile(r"\s*:?-{3,}:?\s*")
END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'*`])")
CELL = re.compile(r"(?<!\\)\|")  # an escaped pipe is text


def units(markdown: str) -> list[str]:
    """Paragraphs, headings, list items and table cells, each as one line of plain text."""
    text = URL.sub("link", LINK.sub(r"\1", COMMENT.sub("", FENCED.sub("", markdown))))
    out, paragraph = [], []

    def close():
        if paragraph:
            out.append(" ".join(paragraph))
            paragraph.clear()

    for line in (raw.strip() for raw in text.splitlines()):
        if not line:
            close()
        elif line.startswith("|"):
            close()
            out += [cell.strip() for cell in CELL.split(line.strip("|")) if not RULE.fullmatch(cell)]
        elif item := ITEM.match(line):
            close()
            paragraph.append(item.group(2))
        else:
            paragraph.append(line)
    close()
    return out


def sentences(markdown: str) -> list[str]:
    return [s for unit in units(markdown) for s in END.split(unit.strip()) if s]


def words(sentence: str) -> int:
    return sum(1 for w in INLINE_CODE.sub("code", sentence).split() if re.search(r"\w", w))


def long_sentences(markdown: str, limit: int = 40) -> list[str]:
    return [s for s in sentences(markdown) if words(s) > limit]
