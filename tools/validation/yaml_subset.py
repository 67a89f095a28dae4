"""A reader for the subset of YAML that the cases' reference.yaml files use (block mappings, "- "
lists, flow mappings and lists, scalars, comments), so that tools/validate needs no YAML package.
Unlike YAML 1.1 readers (PyYAML), it reads 1e-9 as a number, as yaml-cpp does for the C++ tests.
"""
import math


def _scalar(text):
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'":
        return t[1:-1]
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "~", ""):
        return None
    if low in (".inf", "+.inf"):
        return math.inf
    if low == "-.inf":
        return -math.inf
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def _strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def _flow(text, pos=0):
    """Parses a flow collection or scalar starting at text[pos]; returns (value, next position)."""
    while text[pos] == " ":
        pos += 1
    if text[pos] in "[{":
        closing = "]" if text[pos] == "[" else "}"
        mapping = text[pos] == "{"
        result = {} if mapping else []
        pos += 1
        while True:
            while text[pos] in " ,":
                pos += 1
            if text[pos] == closing:
                return result, pos + 1
            if mapping:
                colon = text.index(":", pos)
                key = _scalar(text[pos:colon])
                value, pos = _flow(text, colon + 1)
                result[key] = value
            else:
                value, pos = _flow(text, pos)
                result.append(value)
    end, quote = pos, None
    while end < len(text):
        ch = text[end]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in ",]}":
            break
        end += 1
    return _scalar(text[pos:end]), end


def _value(text):
    text = text.strip()
    if text[:1] in "[{":
        return _flow(text)[0]
    return _scalar(text)


def _block(lines, i, indent):
    """Parses the block starting at lines[i] with the given indent; returns (value, next index)."""
    if lines[i][1].startswith("- "):
        result = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            result.append(_value(lines[i][1][2:]))
            i += 1
        return result, i
    result = {}
    while i < len(lines) and lines[i][0] == indent:
        text = lines[i][1]
        key, _, rest = text.partition(":")
        key = _scalar(key)
        i += 1
        if rest.strip():
            result[key] = _value(rest)
        elif i < len(lines) and lines[i][0] > indent:
            result[key], i = _block(lines, i, lines[i][0])
        else:
            result[key] = None
    return result, i


def read_yaml(path):
    lines = []
    with open(path) as f:
        for raw in f:
            line = _strip_comment(raw.rstrip("\n"))
            if line.strip():
                lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
    if not lines:
        return {}
    value, _ = _block(lines, 0, lines[0][0])
    return value
