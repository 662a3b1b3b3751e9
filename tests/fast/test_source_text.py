"""Source files as Roslyn reads them (query/code.py): by their byte order mark. Visual Studio saves some XAML and C#
files as UTF-16; read as UTF-8 they were replacement characters, so markup named nothing and snippets were noise."""

from __future__ import annotations

import codecs
from pathlib import Path

from roslynmap.query.code import read_lines

TEXT = '<Button Click="OnSave" />\r\n<TextBlock Text="{Binding Title}" />\r\n'


def test_utf16_and_utf8_files_read_alike(tmp_path: Path) -> None:
    (tmp_path / "le.xaml").write_bytes(codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"))
    (tmp_path / "be.xaml").write_bytes(codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"))
    (tmp_path / "bom.xaml").write_bytes(codecs.BOM_UTF8 + TEXT.encode("utf-8"))
    (tmp_path / "plain.xaml").write_bytes(TEXT.encode("utf-8"))
    expected = ['<Button Click="OnSave" />', '<TextBlock Text="{Binding Title}" />']
    assert [read_lines(tmp_path, name) for name in ("le.xaml", "be.xaml", "bom.xaml", "plain.xaml")] == [expected] * 4
