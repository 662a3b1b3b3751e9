"""Short ids (query/shortids.py) over a baseline's type names: shortest unique, never another's full id."""

from __future__ import annotations

import sqlite3

from roslynmap.query import shortids


def _baseline(types: list[tuple[str, str]], externals: list[tuple[str, str]] | None = None) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE symbols (symbol_id TEXT, namespace TEXT)")
    conn.execute("CREATE TABLE externals (symbol_id TEXT, namespace TEXT, container_id TEXT)")
    conn.executemany("INSERT INTO symbols VALUES (?, ?)", [("T:" + p, ns) for p, ns in types])
    conn.executemany("INSERT INTO externals VALUES (?, ?, NULL)", [("T:" + p, ns) for p, ns in externals or []])
    return conn


def test_a_shared_name_keeps_only_the_namespaces_that_tell_it_apart() -> None:
    # eShopOnWeb's shape: the entity Basket beside a page namespace ...Pages.Basket holding IndexModel,
    # and another Basket type in a view-model namespace.
    conn = _baseline([("Shop.Core.Entities.BasketAggregate.Basket", "Shop.Core.Entities.BasketAggregate"),
                      ("Shop.Web.ViewModels.Basket", "Shop.Web.ViewModels"),
                      ("Shop.Web.Pages.Basket.IndexModel", "Shop.Web.Pages.Basket"),
                      ("Shop.Core.Services.BasketService", "Shop.Core.Services"),
                      ("Shop.Core.IRepository`1", "Shop.Core")],
                     [("System.Collections.Generic.List`1", "System.Collections.Generic")])
    short = shortids.build(conn)
    assert short["Shop.Core.Entities.BasketAggregate.Basket"] == "BasketAggregate.Basket"
    assert short["Shop.Web.ViewModels.Basket"] == "ViewModels.Basket"
    assert short["Shop.Web.Pages.Basket.IndexModel"] == "IndexModel"
    assert shortids.shorten("M:Shop.Core.Services.BasketService.Add(Shop.Core.IRepository{"
                            "Shop.Core.Entities.BasketAggregate.Basket},System.Int32)", short) == \
        "M:BasketService.Add(IRepository{BasketAggregate.Basket},Int32)"


def test_a_short_form_is_never_another_types_full_path() -> None:
    # `Basket` of the global namespace and `Shop.Basket`: the global one has no shorter form, and the other
    # may not take `Basket` (it is the global type's full id).
    conn = _baseline([("Basket", ""), ("Shop.Basket", "Shop"), ("Shop.Orders.Basket", "Shop.Orders")])
    short = shortids.build(conn)
    assert "Basket" not in short and short["Shop.Orders.Basket"] == "Orders.Basket"
    assert "Shop.Basket" not in short  # `Basket` is taken, and no namespace is left to add
    # Short forms come back as the one full id they stand for.
    conn.execute("INSERT INTO symbols VALUES ('M:Shop.Orders.Basket.Add(System.Int32)', 'Shop.Orders')")
    assert shortids.expand(conn, "M:Orders.Basket.Add(Int32)") == ["M:Shop.Orders.Basket.Add(System.Int32)"]


def test_a_by_ref_parameter_is_shortened_and_taken_back() -> None:
    """Polly's `IsLastAttempt(Int32, out Boolean)`: its id kept `System.Boolean@` beside `Int32`, and the natural short
    form `Boolean@` was NOT_FOUND (the `@` was read as part of the type's name)."""
    conn = _baseline([("Polly.Retry.Strategy", "Polly.Retry")])
    short = shortids.build(conn)
    full = "M:Polly.Retry.Strategy.IsLastAttempt(System.Int32,System.Boolean@)"
    assert shortids.shorten(full, short) == "M:Strategy.IsLastAttempt(Int32,Boolean@)"
    conn.execute("INSERT INTO symbols VALUES (?, 'Polly.Retry')", (full,))
    assert shortids.expand(conn, "M:Strategy.IsLastAttempt(Int32,Boolean@)") == [full]
