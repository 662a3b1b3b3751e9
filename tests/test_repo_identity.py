"""Teammates' clones share a repo id whatever form their remote URL takes (the shared cache keys on it)."""

from __future__ import annotations

import pytest
from roslynmap.store.repo import normalize_remote

SAME_REPOSITORY = [
    ("github.com/org/repo", [
        "git@github.com:Org/Repo.git",
        "https://github.com/org/repo",
        "https://github.com/org/repo.git/",
        "ssh://git@github.com:22/org/repo.git",
        "https://user:token@github.com/Org/Repo",
    ]),
    ("dev.azure.com/contoso/shop/shop.api", [
        "https://dev.azure.com/contoso/Shop/_git/Shop.Api",
        "https://contoso@dev.azure.com/contoso/Shop/_git/Shop.Api",
        "git@ssh.dev.azure.com:v3/contoso/Shop/Shop.Api",
        "ssh://git@ssh.dev.azure.com/v3/contoso/Shop/Shop.Api",
        "https://contoso.visualstudio.com/Shop/_git/Shop.Api",
        "https://contoso.visualstudio.com/DefaultCollection/Shop/_git/Shop.Api",
        "contoso@vs-ssh.visualstudio.com:v3/contoso/Shop/Shop.Api",
    ]),
    ("gitlab.example.com/group/sub/repo", [
        "git@gitlab.example.com:group/sub/repo.git",
        "https://gitlab.example.com/group/sub/repo.git",
    ]),
]


@pytest.mark.parametrize(("expected", "urls"), SAME_REPOSITORY)
def test_remote_forms_of_one_repository_normalize_alike(expected: str, urls: list[str]) -> None:
    assert {url: normalize_remote(url) for url in urls} == {url: expected for url in urls}


def test_different_repositories_stay_different() -> None:
    names = ["https://dev.azure.com/contoso/Shop/_git/Shop.Api", "https://dev.azure.com/contoso/Shop/_git/Shop.Web",
             "https://dev.azure.com/fabrikam/Shop/_git/Shop.Api", "https://github.com/contoso/Shop.Api"]
    assert len({normalize_remote(n) for n in names}) == len(names)
