"""Scoring from the command line's side: each photo read once, annotated pictures that never replace one
another, and pictures too large to read refused from their header alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scan.conftest import NEEDS_SCAN

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)
np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.scan import score
from printgen.scan.reader import Unreadable


def test_a_photo_given_twice_is_read_once(tmp_path: Path) -> None:
    photo = tmp_path / "a.jpg"
    photo.write_bytes(b"")
    assert score.photos([photo, tmp_path / "." / "a.jpg", tmp_path]) == [photo]


def test_annotations_of_photos_with_one_name_are_numbered(tmp_path: Path) -> None:
    photos = [tmp_path / "a.jpg", tmp_path / "night" / "a.jpg", tmp_path / "A.png", tmp_path / "b.jpg"]
    targets = score.annotation_targets(tmp_path / "read.webp", photos)
    assert [t.name for t in targets] == ["read-a.webp", "read-a-2.webp", "read-A-3.webp", "read-b.webp"]
    assert score.annotation_targets(tmp_path / "read.png", photos[:1]) == [tmp_path / "read.png"]


def test_a_picture_too_large_is_refused_before_it_is_decoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picture = tmp_path / "wide.png"
    cv2.imwrite(str(picture), np.zeros((300, 400), np.uint8))
    monkeypatch.setattr(score, "MAX_PIXELS", 100_000)
    monkeypatch.setattr(score.cv2, "imread", lambda *args: pytest.fail("decoded"))
    ((path, image, (result,)),) = list(score.score([picture], reader=None))  # type: ignore[arg-type]
    assert path == picture and image is None
    assert isinstance(result, Unreadable) and "megapixels" in result.reason
