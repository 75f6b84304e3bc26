"""Resolution of relative references against a base URL (RFC 3986, section 5.2)."""

from dataclasses import replace
from typing import Union

from .parse import URL, parse_url


def remove_dot_segments(path: str) -> str:
    """Remove the '.' and '..' segments of a path."""
    segments = path.split("/")
    output = []
    for segment in segments:
        if segment == ".":
            continue
        if segment == "..":
            if len(output) > 1 or (output and output[0] != ""):
                output.pop()
            continue
        output.append(segment)
    if segments[-1] in (".", ".."):
        output.append("")
    result = "/".join(output)
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def _merge_paths(base: URL, reference_path: str) -> str:
    if base.host and not base.path:
        return "/" + reference_path
    return base.path[:base.path.rfind("/") + 1] + reference_path


def join_url(base: Union[str, URL], reference: str) -> URL:
    """Resolve a reference, such as '../img/a.png', against a base URL."""
    base_url = parse_url(base) if isinstance(base, str) else base
    ref = parse_url(reference)
    if ref.scheme:
        return replace(ref, path=remove_dot_segments(ref.path))
    if reference.startswith("//"):
        return replace(ref, scheme=base_url.scheme, path=remove_dot_segments(ref.path))
    if not ref.path:
        query = ref.query if "?" in reference else base_url.query
        return replace(base_url, query=query, fragment=ref.fragment)
    if ref.path.startswith("/"):
        path = remove_dot_segments(ref.path)
    else:
        path = remove_dot_segments(_merge_paths(base_url, ref.path))
    return replace(base_url, path=path, query=ref.query, fragment=ref.fragment)
