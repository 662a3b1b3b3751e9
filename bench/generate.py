"""Generate a deterministic, compilable C# solution for benchmarking roslynmap.

Usage::

    python bench/generate.py OUT_DIR --lines 100000 --seed 42 [--projects N] [--force]

The output is a ``Bench.slnx`` solution of plain ``Microsoft.NET.Sdk`` class libraries
(net10.0, ImplicitUsings and Nullable enabled, no NuGet packages) laid out in three layers:

* ``src/Bench.DomainNN`` (about 40% of the projects): entities deriving from an abstract
  ``EntityBase`` (overrides of ``Describe``/``Validate``), enums, DTO records with ``with``
  expressions, repository interfaces extending a generic ``IRepository<T>``, extension methods.
  ``Bench.Domain01`` also holds the shared kernel (``Kernel/``): ``IEntity``, ``EntityBase``,
  ``IRepository<T>``, ``InMemoryRepository<T>``, ``IClock``, paging records and generics.
* ``src/Bench.ServicesNN`` (about 40%): two or three implementations of every repository
  interface (in-memory subclass with an override, a "SQL" one with ``ref`` arguments, a caching
  decorator), and a ``XService : IXService`` with constructor injection of its repository, the
  clock and zero to two other services (possibly from a lower Services project), calling through
  the interfaces.
* ``src/Bench.ApiNN`` (about 20%, ASP.NET Core through its shared framework, no NuGet):
  ``XController : ControllerBase`` classes with constructor injection of ``IXService``, a
  ``CompositionRoot`` wiring every controller's dependencies, and per feature an ``XEndpoints``
  class (DI registration, a MapGroup of minimal-API routes, a configuration key, a log template)
  that ``WebHost`` composes with middleware: the architectural facts at scale.

Project references only point downwards (Domain01 <- DomainNN <- ServicesNN <- ApiNN, and a
Services project may reference a lower-numbered one), so the graph is acyclic.

Flags:

* ``--lines``: approximate number of C# source lines to write (default 100000).
* ``--seed``: the random seed; the same seed, lines and projects give byte-identical output.
* ``--projects``: project count (default ``lines // 8000``, at least 3).
* ``--force``: replace the solution in an OUT_DIR this script generated before.

Prints a summary line: projects, files, lines.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

MARKER = ".bench-generated"
KERNEL_NS = "Bench.Domain01"


def words(text: str) -> list[str]:
    """Split a whitespace-separated word list."""
    return text.split()


QUALIFIERS = words(
    """
    Retail Wholesale Online Partner Regional Premium Standard Seasonal Bulk Express Internal
    External Global Local Vendor Member Trial Corporate Mobile Legacy Digital Priority Shared
    Scheduled Recurring Pending Draft Archived Custom Primary Secondary Warehouse Supplier
    Loyalty Marketing Finance Support Travel Medical Student
"""
)
NOUNS = words(
    """
    Invoice Order Shipment Product Payment Customer Account Contract Refund Coupon Ticket
    Booking Delivery Supplier Catalog Basket Voucher Receipt Quote Lead Campaign Subscription
    License Asset Budget Ledger Claim Policy Route Parcel Review Survey Badge Reward Warranty
    Return Transfer Deposit Statement Forecast
"""
)

# (type, name, initializer or "")
EXTRA_PROPERTIES = [
    ("int", "Priority", ""),
    ("string", "Code", ' = "";'),
    ("bool", "IsActive", ""),
    ("decimal", "Discount", ""),
    ("DateTimeOffset?", "ClosedAt", ""),
    ("string?", "Notes", ""),
    ("int", "Revision", ""),
    ("Guid", "OwnerId", ""),
]

SERVICE_METHODS = ["search", "page", "rename", "archive", "average", "large", "remove", "adjust"]


@dataclass
class Feature:
    """One vertical slice: an entity in a Domain project, its repositories and service in a
    Services project, and its controller in an Api project."""

    index: int
    name: str
    domain: int
    service: int
    api: int
    threshold: int
    properties: list[tuple[str, str, str]]
    impls: list[str]
    deps: list[int]
    methods: list[str]
    scores: int
    lines: int = 0


@dataclass
class Layout:
    domains: int
    services: int
    apis: int

    def domain_ns(self, i: int) -> str:
        return f"Bench.Domain{i + 1:02d}"

    def service_ns(self, i: int) -> str:
        return f"Bench.Services{i + 1:02d}"

    def api_ns(self, i: int) -> str:
        return f"Bench.Api{i + 1:02d}"


@dataclass
class Output:
    root: Path
    files: dict[str, str] = field(default_factory=dict)

    def add(self, rel: str, text: str) -> int:
        if rel in self.files:
            raise ValueError(f"duplicate file {rel}")
        self.files[rel] = text
        return text.count("\n")

    def cs_lines(self) -> int:
        return sum(t.count("\n") for p, t in self.files.items() if p.endswith(".cs"))

    def write(self) -> None:
        for rel in sorted(self.files):
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.files[rel], encoding="utf-8", newline="\n")


def fill(template: str, **values: str) -> str:
    """Replace ``__KEY__`` placeholders (brace-free, so C# braces stay readable)."""
    text = template
    for key, value in values.items():
        text = text.replace(f"__{key}__", value)
    if "__" in text:
        leftover = text[text.index("__") : text.index("__") + 20]
        raise ValueError(f"unfilled placeholder near {leftover!r}")
    return text


def camel(name: str) -> str:
    return name[0].lower() + name[1:]


def kebab(name: str) -> str:
    out: list[str] = []
    for i, ch in enumerate(name):
        if ch.isupper() and i > 0:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


def usings(namespaces: list[str], own: str) -> str:
    lines = [f"using {ns};" for ns in sorted(set(namespaces)) if ns != own]
    return "\n".join(lines) + "\n\n" if lines else ""


def layout_for(projects: int) -> Layout:
    domains = max(1, round(projects * 0.4))
    apis = max(1, round(projects * 0.2))
    services = projects - domains - apis
    if services < 1:
        domains -= 1 - services
        services = 1
    return Layout(domains, services, apis)


def feature_names(rng: random.Random) -> list[str]:
    combos = [q + n for q in QUALIFIERS for n in NOUNS if q != n]
    rng.shuffle(combos)
    return combos


# ---------------------------------------------------------------- kernel (Bench.Domain01/Kernel)

KERNEL_FILES: dict[str, str] = {
    "IEntity.cs": """namespace Bench.Domain01;

/// <summary>Anything stored in a repository.</summary>
public interface IEntity
{
    Guid Id { get; }

    string Describe();
}
""",
    "EntityBase.cs": """namespace Bench.Domain01;

/// <summary>Base class of every entity: identity, validation and a last-update stamp.</summary>
public abstract class EntityBase : IEntity
{
    protected EntityBase(Guid id)
    {
        Id = id;
    }

    public Guid Id { get; }

    public DateTimeOffset? UpdatedAt { get; protected set; }

    public abstract string Describe();

    public virtual bool Validate() => Id != Guid.Empty;

    public void Touch(DateTimeOffset now)
    {
        UpdatedAt = now;
    }
}
""",
    "IRepository.cs": """namespace Bench.Domain01;

/// <summary>Stores entities of one type.</summary>
public interface IRepository<T>
    where T : class, IEntity
{
    int Count { get; }

    T? Get(Guid id);

    IReadOnlyList<T> List();

    void Save(T entity);

    bool Delete(Guid id);
}
""",
    "InMemoryRepository.cs": """namespace Bench.Domain01;

/// <summary>A dictionary-backed <see cref="IRepository{T}"/>.</summary>
public class InMemoryRepository<T> : IRepository<T>
    where T : class, IEntity
{
    private readonly Dictionary<Guid, T> _items = new();

    public int Count => _items.Count;

    public virtual T? Get(Guid id) => _items.TryGetValue(id, out var item) ? item : null;

    public virtual IReadOnlyList<T> List() => _items.Values.ToList();

    public virtual void Save(T entity)
    {
        _items[entity.Id] = entity;
    }

    public virtual bool Delete(Guid id) => _items.Remove(id);
}
""",
    "Clock.cs": """namespace Bench.Domain01;

/// <summary>The current time, injectable.</summary>
public interface IClock
{
    DateTimeOffset Now { get; }
}

/// <summary>A clock that never moves.</summary>
public sealed class FixedClock(DateTimeOffset now) : IClock
{
    public DateTimeOffset Now { get; } = now;
}
""",
    "Paging.cs": """namespace Bench.Domain01;

/// <summary>A 1-based page request.</summary>
public sealed record PageRequest(int Number, int Size)
{
    public static PageRequest First { get; } = new(1, 20);

    public int Skip => (Number - 1) * Size;
}

/// <summary>One page of results.</summary>
public sealed record Page<T>(IReadOnlyList<T> Items, int Total, PageRequest Request);

/// <summary>Paging helpers.</summary>
public static class Paging
{
    public static Page<T> ToPage<T>(this IReadOnlyList<T> items, PageRequest request)
    {
        var slice = items.Skip(request.Skip).Take(request.Size).ToList();
        return new Page<T>(slice, items.Count, request);
    }

    public static T Require<T>(T? value, string name)
        where T : class
    {
        return value ?? throw new ArgumentNullException(name);
    }
}
""",
}

# ---------------------------------------------------------------- domain layer

ENTITY = """__USINGS__namespace __NS__;

/// <summary>A __WORDS__ entity.</summary>
public class __F__ : EntityBase
{
    public __F__(Guid id, string name)
        : base(id)
    {
        Name = name;
    }

    public string Name { get; set; }

    public decimal Amount { get; set; }

    public int Quantity { get; set; }

    public __F__Status Status { get; set; } = __F__Status.Draft;

__PROPS__    /// <summary>Amount times quantity.</summary>
    public decimal Total => Amount * Quantity;

    public override string Describe() => $"__F__ {Name}: {Total}";

    public override bool Validate() => base.Validate() && Name.Length > 0 && Quantity >= 0;

    public void Apply(__F__Dto dto)
    {
        Name = dto.Name;
        Amount = dto.Amount;
        Quantity = dto.Quantity;
    }

    public __F__Dto ToDto() => new(Id, Name, Amount, Quantity);
}

/// <summary>Lifecycle of a <see cref="__F__"/>.</summary>
public enum __F__Status
{
    Draft,
    Active,
    Archived,
}
"""

CONTRACTS = """__USINGS__namespace __NS__;

/// <summary>Transfer shape of <see cref="__F__"/>.</summary>
public sealed record __F__Dto(Guid Id, string Name, decimal Amount, int Quantity);

/// <summary>Stores <see cref="__F__"/> entities.</summary>
public interface I__F__Repository : IRepository<__F__>
{
    IReadOnlyList<__F__> FindByName(string name);

    decimal SumTotals();
}

/// <summary>Queries over <see cref="__F__"/>.</summary>
public static class __F__Extensions
{
    public static bool IsLarge(this __F__ entity) => entity.Total > __THRESHOLD__m;

    public static __F__Dto WithAmount(this __F__Dto dto, decimal amount) => dto with { Amount = amount };
}
"""

# ---------------------------------------------------------------- services layer

IN_MEMORY_REPO = """__USINGS__namespace __NS__;

/// <summary>In-memory <see cref="I__F__Repository"/>.</summary>
public class InMemory__F__Repository : InMemoryRepository<__F__>, I__F__Repository
{
    public int Saves { get; private set; }

    public override void Save(__F__ entity)
    {
        Saves++;
        base.Save(entity);
    }

    public IReadOnlyList<__F__> FindByName(string name) => List().Where(e => e.Name == name).ToList();

    public decimal SumTotals() => List().Sum(e => e.Total);
}
"""

SQL_REPO = """__USINGS__namespace __NS__;

/// <summary>An <see cref="I__F__Repository"/> shaped like a SQL table.</summary>
public sealed class Sql__F__Repository : I__F__Repository
{
    public const string Table = "__TABLE__";

    private readonly Dictionary<Guid, __F__> _rows = new();
    private int _queries;

    public int Count => _rows.Count;

    public int Queries => _queries;

    public __F__? Get(Guid id)
    {
        Track(ref _queries);
        return _rows.TryGetValue(id, out var row) ? row : null;
    }

    public IReadOnlyList<__F__> List() => _rows.Values.OrderBy(r => r.Name).ToList();

    public void Save(__F__ entity)
    {
        Track(ref _queries);
        _rows[entity.Id] = entity;
    }

    public bool Delete(Guid id) => _rows.Remove(id);

    public IReadOnlyList<__F__> FindByName(string name) => _rows.Values.Where(r => r.Name == name).ToList();

    public decimal SumTotals() => _rows.Values.Sum(r => r.Total);

    private static void Track(ref int counter) => counter++;
}
"""

CACHED_REPO = """__USINGS__namespace __NS__;

/// <summary>A caching decorator over another <see cref="I__F__Repository"/>.</summary>
public sealed class Cached__F__Repository : I__F__Repository
{
    private readonly I__F__Repository _inner;
    private readonly Dictionary<Guid, __F__> _cache = new();

    public Cached__F__Repository(I__F__Repository inner)
    {
        _inner = inner;
    }

    public int Hits { get; private set; }

    public int Count => _inner.Count;

    public __F__? Get(Guid id)
    {
        if (_cache.TryGetValue(id, out var cached))
        {
            Hits++;
            return cached;
        }

        var entity = _inner.Get(id);
        if (entity is not null)
        {
            _cache[id] = entity;
        }

        return entity;
    }

    public IReadOnlyList<__F__> List() => _inner.List();

    public void Save(__F__ entity)
    {
        _cache.Remove(entity.Id);
        _inner.Save(entity);
    }

    public bool Delete(Guid id)
    {
        _cache.Remove(id);
        return _inner.Delete(id);
    }

    public IReadOnlyList<__F__> FindByName(string name) => _inner.FindByName(name);

    public decimal SumTotals() => _inner.SumTotals();
}
"""

# method key -> (interface signature, implementation, controller action)
METHOD_TEMPLATES: dict[str, tuple[str, str, str]] = {
    "search": (
        "IReadOnlyList<__F__Dto> Search(string term);",
        """    public IReadOnlyList<__F__Dto> Search(string term)
    {
        Calls++;
        return _repository.FindByName(term).Select(e => e.ToDto()).ToList();
    }
""",
        """    public ApiResponse<IReadOnlyList<__F__Dto>> Search(string term) => Ok(_service.Search(term));
""",
    ),
    "page": (
        "Page<__F__Dto> ListPage(PageRequest request);",
        """    public Page<__F__Dto> ListPage(PageRequest request)
    {
        Calls++;
        var items = _repository.List().Select(e => e.ToDto()).ToList();
        return items.ToPage(request);
    }
""",
        """    public ApiResponse<Page<__F__Dto>> List(int page, int size)
    {
        var request = page > 0 ? new PageRequest(page, size) : PageRequest.First;
        return Ok(_service.ListPage(request));
    }
""",
    ),
    "rename": (
        "bool Rename(Guid id, string name);",
        """    public bool Rename(Guid id, string name)
    {
        var entity = _repository.Get(id);
        if (entity is null)
        {
            return false;
        }

        entity.Name = name;
        entity.Touch(_clock.Now);
        _repository.Save(entity);
        return true;
    }
""",
        """    public ApiResponse<bool> Rename(Guid id, string name)
    {
        var renamed = _service.Rename(id, name);
        return renamed ? Ok(true) : NotFound<bool>();
    }
""",
    ),
    "archive": (
        "int Archive();",
        """    public int Archive()
    {
        var archived = 0;
        foreach (var entity in _repository.List())
        {
            if (entity.Status == __F__Status.Active)
            {
                entity.Status = __F__Status.Archived;
                _repository.Save(entity);
                archived++;
            }
        }

        return archived;
    }
""",
        """    public ApiResponse<int> Archive() => Ok(_service.Archive());
""",
    ),
    "average": (
        "decimal Average();",
        """    public decimal Average()
    {
        var items = _repository.List();
        return items.Count == 0 ? 0m : items.Average(e => e.Total);
    }
""",
        """    public ApiResponse<decimal> GetAverage() => Ok(_service.Average());
""",
    ),
    "large": (
        "int CountLarge();",
        """    public int CountLarge() => _repository.List().Count(e => e.IsLarge());
""",
        """    public ApiResponse<int> GetLargeCount() => Ok(_service.CountLarge());
""",
    ),
    "remove": (
        "bool Remove(Guid id);",
        """    public bool Remove(Guid id)
    {
        Calls++;
        return _repository.Delete(id);
    }
""",
        """    public ApiResponse<bool> Delete(Guid id) => _service.Remove(id) ? Ok(true) : NotFound<bool>();
""",
    ),
    "adjust": (
        "bool Adjust(Guid id, decimal delta);",
        """    public bool Adjust(Guid id, decimal delta)
    {
        var entity = _repository.Get(id);
        if (entity is null)
        {
            return false;
        }

        entity.Amount += delta;
        entity.Quantity++;
        _repository.Save(entity);
        return true;
    }
""",
        """    public ApiResponse<bool> Adjust(Guid id, decimal delta)
    {
        var request = _service.Find(id)?.WithAmount(delta);
        return request is not null && _service.Adjust(request.Id, request.Amount) ? Ok(true) : NotFound<bool>();
    }
""",
    ),
}

SCORE_TEMPLATE = (
    "decimal Score__K__(decimal factor);",
    """    public decimal Score__K__(decimal factor)
    {
        var total = 0m;
        foreach (var entity in _repository.List())
        {
            total += (entity.Total * factor) + __K__;
        }

        return Math.Round(total, __DIGITS__);
    }
""",
    """    public ApiResponse<decimal> GetScore__K__(decimal factor) => Ok(_service.Score__K__(factor));
""",
)

SERVICE = """__USINGS__namespace __NS__;

/// <summary>Application operations on <see cref="__F__"/>.</summary>
public interface I__F__Service
{
    __F__Dto? Find(Guid id);

    __F__Dto Create(string name, decimal amount, int quantity);

    decimal Total();
__SIGNATURES__}

/// <summary>Implements <see cref="I__F__Service"/> over an injected repository.</summary>
public sealed class __F__Service : I__F__Service
{
    private readonly I__F__Repository _repository;
    private readonly IClock _clock;
__DEP_FIELDS__
    public __F__Service(__CTOR_PARAMS__)
    {
        _repository = repository;
        _clock = clock;
__DEP_ASSIGN__    }

    public int Calls { get; private set; }

    public __F__Dto? Find(Guid id)
    {
        Calls++;
        return _repository.Get(id)?.ToDto();
    }

    public __F__Dto Create(string name, decimal amount, int quantity)
    {
        Calls++;
        var entity = new __F__(Guid.NewGuid(), name) { Amount = amount, Quantity = quantity };
        entity.Touch(_clock.Now);
        if (!entity.Validate())
        {
            throw new ArgumentException("Invalid __F__.", nameof(name));
        }

        _repository.Save(entity);
        return entity.ToDto();
    }

    public decimal Total() => __TOTAL__;
__METHODS__}
"""

# ---------------------------------------------------------------- api layer

CONTROLLER_BASE = """namespace __NS__;

/// <summary>Base class of the controllers in this project.</summary>
public abstract class ControllerBase
{
    public abstract string Route { get; }

    public int Requests { get; private set; }

    public virtual string Describe() => $"{GetType().Name} at {Route}";

    protected ApiResponse<T> Ok<T>(T value)
    {
        Requests++;
        return new ApiResponse<T>(200, value);
    }

    protected ApiResponse<T> Created<T>(T value)
    {
        Requests++;
        return new ApiResponse<T>(201, value);
    }

    protected ApiResponse<T> NotFound<T>()
    {
        Requests++;
        return new ApiResponse<T>(404, default);
    }
}

/// <summary>An HTTP-like response.</summary>
public sealed record ApiResponse<T>(int Status, T? Value)
{
    public bool IsSuccess => Status is >= 200 and < 300;
}
"""

CONTROLLER = """__USINGS__namespace __NS__;

/// <summary>Endpoints for <see cref="__F__Dto"/>.</summary>
public sealed class __F__Controller : ControllerBase
{
    private readonly I__F__Service _service;

    public __F__Controller(I__F__Service service)
    {
        _service = service;
    }

    public override string Route => "/api/__ROUTE__";

    public ApiResponse<__F__Dto> Get(Guid id)
    {
        var dto = _service.Find(id);
        return dto is null ? NotFound<__F__Dto>() : Ok(dto);
    }

    public ApiResponse<__F__Dto> Post(__F__Dto request) =>
        Created(_service.Create(request.Name, request.Amount, request.Quantity));

    public ApiResponse<decimal> GetTotal() => Ok(_service.Total());
__ACTIONS__}
"""


ENDPOINTS = """using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
__USINGS__namespace __NS__;

/// <summary>Minimal-API endpoints and service registration for <see cref="__F__Dto"/>.</summary>
public static class __F__Endpoints
{
    public static IServiceCollection Add__F__(this IServiceCollection services, CompositionRoot root)
    {
        services.AddSingleton<I__F__Service>(_ => root.Resolve__F__Service());
        return services;
    }

    public static IEndpointRouteBuilder Map__F__Endpoints(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/__ROUTE__");
        group.MapGet("/", (I__F__Service service) => service.Total());
        group.MapGet("/{id:guid}", (Guid id, I__F__Service service, ILogger<__F__Controller> logger) =>
        {
            logger.LogInformation("Fetching __F__ {Id}", id);
            return service.Find(id) is { } found ? Results.Ok(found.Name) : Results.NotFound();
        });
        group.MapDelete("/{id:guid}", (Guid id, IConfiguration config) =>
            config["__F__:AllowDelete"] == "true" ? Results.NoContent() : Results.Forbid());
        return app;
    }
}
"""


def render_props(props: list[tuple[str, str, str]]) -> str:
    out = ""
    for type_, name, init in props:
        suffix = init if init else ""
        out += f"    public {type_} {name} {{ get; set; }}{suffix}\n\n"
    return out


def split_words(name: str) -> str:
    return kebab(name).replace("-", " ")


def make_features(rng: random.Random, layout: Layout, target_lines: int, out: Output) -> list[Feature]:
    names = feature_names(rng)
    features: list[Feature] = []
    # fixed costs so far (kernel, ControllerBase files) + composition-root scaffolding
    estimate = out.cs_lines() + layout.apis * 14
    while estimate < target_lines:
        i = len(features)
        base = names[i % len(names)]
        name = base if i < len(names) else f"{base}{i // len(names) + 1}"
        service = rng.randrange(layout.services)
        candidates = [f.index for f in features if f.service <= service]
        dep_count = rng.choices([0, 1, 2], weights=[30, 45, 25])[0]
        deps = sorted(rng.sample(candidates, min(dep_count, len(candidates))))
        impls = ["InMemory"]
        if rng.random() < 0.7:
            impls.append("Sql")
        if len(impls) == 1 or rng.random() < 0.5:
            impls.append("Cached")
        feature = Feature(
            index=i,
            name=name,
            domain=rng.randrange(layout.domains),
            service=service,
            api=rng.randrange(layout.apis),
            threshold=rng.choice([100, 250, 500, 1000, 5000]),
            properties=sorted(rng.sample(EXTRA_PROPERTIES, rng.randint(0, 4)), key=EXTRA_PROPERTIES.index),
            impls=impls,
            deps=deps,
            methods=sorted(rng.sample(SERVICE_METHODS, rng.randint(2, 6)), key=SERVICE_METHODS.index),
            scores=rng.randint(0, 3),
        )
        feature.lines = render_feature(feature, features, layout, out)
        features.append(feature)
        estimate += feature.lines + 4 + 3 * len(feature.deps)
    return features


def render_feature(f: Feature, previous: list[Feature], layout: Layout, out: Output) -> int:
    dns = layout.domain_ns(f.domain)
    sns = layout.service_ns(f.service)
    ans = layout.api_ns(f.api)
    dproj = f"src/{dns}"
    sproj = f"src/{sns}"
    aproj = f"src/{ans}"
    lines = 0

    values = {"F": f.name, "NS": dns}
    lines += out.add(
        f"{dproj}/{f.name}/{f.name}.cs",
        fill(
            ENTITY,
            USINGS=usings([KERNEL_NS], dns),
            WORDS=split_words(f.name),
            PROPS=render_props(f.properties),
            **values,
        ),
    )
    lines += out.add(
        f"{dproj}/{f.name}/{f.name}Contracts.cs",
        fill(CONTRACTS, USINGS=usings([KERNEL_NS], dns), THRESHOLD=str(f.threshold), **values),
    )

    svc_usings = usings([KERNEL_NS, dns], sns)
    templates = {"InMemory": IN_MEMORY_REPO, "Sql": SQL_REPO, "Cached": CACHED_REPO}
    for impl in f.impls:
        lines += out.add(
            f"{sproj}/{f.name}/{impl}{f.name}Repository.cs",
            fill(templates[impl], USINGS=svc_usings, F=f.name, NS=sns, TABLE=kebab(f.name).replace("-", "_")),
        )

    deps = [previous[d] for d in f.deps]
    dep_ns = [layout.service_ns(d.service) for d in deps] + [layout.domain_ns(d.domain) for d in deps]
    signatures = ""
    methods = ""
    actions = ""
    for key in f.methods:
        sig, impl, action = METHOD_TEMPLATES[key]
        signatures += "\n    " + fill(sig, F=f.name) + "\n"
        methods += "\n" + fill(impl, F=f.name)
        actions += "\n" + fill(action, F=f.name)
    for k in range(1, f.scores + 1):
        sig, impl, action = SCORE_TEMPLATE
        kv = {"K": str(k), "DIGITS": str(k % 4)}
        signatures += "\n    " + fill(sig, **kv) + "\n"
        methods += "\n" + fill(impl, **kv)
        actions += "\n" + fill(action, **kv)
    for d in deps:
        signatures += f"\n    string? Lookup{d.name}(Guid id);\n"
        methods += f"\n    public string? Lookup{d.name}(Guid id) => _{camel(d.name)}Service.Find(id)?.Name;\n"
        actions += (
            f"\n    public ApiResponse<string> Lookup{d.name}(Guid id)\n"
            "    {\n"
            f"        var name = _service.Lookup{d.name}(id);\n"
            "        return name is null ? NotFound<string>() : Ok(name);\n"
            "    }\n"
        )

    params = [f"I{f.name}Repository repository", "IClock clock"]
    params += [f"I{d.name}Service {camel(d.name)}Service" for d in deps]
    dep_fields = "".join(f"    private readonly I{d.name}Service _{camel(d.name)}Service;\n" for d in deps)
    dep_assign = "".join(f"        _{camel(d.name)}Service = {camel(d.name)}Service;\n" for d in deps)
    total = "_repository.SumTotals()" + "".join(f" + _{camel(d.name)}Service.Total()" for d in deps)
    lines += out.add(
        f"{sproj}/{f.name}/{f.name}Service.cs",
        fill(
            SERVICE,
            USINGS=usings([KERNEL_NS, dns, *dep_ns], sns),
            F=f.name,
            NS=sns,
            SIGNATURES=signatures,
            DEP_FIELDS=dep_fields,
            CTOR_PARAMS=", ".join(params) if not deps else "\n        " + ",\n        ".join(params),
            DEP_ASSIGN=dep_assign,
            TOTAL=total,
            METHODS=methods,
        ),
    )

    lines += out.add(
        f"{aproj}/Endpoints/{f.name}Endpoints.cs",
        fill(ENDPOINTS, USINGS=usings([KERNEL_NS, dns, sns], ans), F=f.name, NS=ans, ROUTE=kebab(f.name)),
    )
    lines += out.add(
        f"{aproj}/Controllers/{f.name}Controller.cs",
        fill(
            CONTROLLER,
            USINGS=usings([KERNEL_NS, dns, sns], ans),
            F=f.name,
            NS=ans,
            ROUTE=kebab(f.name),
            ACTIONS=actions,
        ),
    )
    return lines


def closure(features: list[Feature], roots: list[int]) -> list[int]:
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i in seen:
            continue
        seen.add(i)
        stack.extend(features[i].deps)
    return sorted(seen)


def repository_expression(f: Feature) -> str:
    inner = f"new Sql{f.name}Repository()" if "Sql" in f.impls else f"new InMemory{f.name}Repository()"
    if "Cached" in f.impls:
        return f"new Cached{f.name}Repository({inner})"
    return inner


def render_composition_root(
    api: int, features: list[Feature], layout: Layout, out: Output
) -> tuple[set[str], set[str]]:
    """Write CompositionRoot.cs for one Api project; return the (domain, service) projects it uses."""
    ans = layout.api_ns(api)
    own = [f.index for f in features if f.api == api]
    needed = closure(features, own)
    domains = {layout.domain_ns(features[i].domain) for i in needed}
    services = {layout.service_ns(features[i].service) for i in needed}
    body = ""
    for i in needed:
        f = features[i]
        body += f"    private I{f.name}Service? _{camel(f.name)}Service;\n"
    body += "\n"
    for i in needed:
        f = features[i]
        field_name = f"_{camel(f.name)}Service"
        args = [repository_expression(f), "_clock"] + [f"Resolve{features[d].name}Service()" for d in f.deps]
        body += (
            f"    public I{f.name}Service Resolve{f.name}Service() =>\n"
            f"        {field_name} ??= new {f.name}Service({', '.join(args)});\n\n"
        )
    for i in own:
        f = features[i]
        body += f"    public {f.name}Controller Create{f.name}Controller() => new(Resolve{f.name}Service());\n\n"
    controllers = ", ".join(f"Create{features[i].name}Controller()" for i in own)
    body += f"    public IReadOnlyList<ControllerBase> Controllers() => [{controllers}];\n"
    text = (
        usings([KERNEL_NS, *domains, *services], ans)
        + f"namespace {ans};\n\n"
        + "/// <summary>Wires every controller of this project with its dependencies.</summary>\n"
        + "public sealed class CompositionRoot\n{\n"
        + "    private readonly IClock _clock =\n"
        + "        new FixedClock(new DateTimeOffset(2024, 1, 1, 0, 0, 0, TimeSpan.Zero));\n\n"
        + body
        + "}\n"
    )
    out.add(f"src/{ans}/CompositionRoot.cs", text)
    registrations = "".join(f"\n            .Add{features[i].name}(root)" for i in own)
    maps = "".join(f"        app.Map{features[i].name}Endpoints();\n" for i in own)
    out.add(f"src/{ans}/WebHost.cs", (
        "using Microsoft.AspNetCore.Builder;\nusing Microsoft.Extensions.DependencyInjection;\n\n"
        f"namespace {ans};\n\n/// <summary>The web application of this project: services, middleware, endpoints."
        "</summary>\npublic static class WebHost\n{\n    public static WebApplication Build(string[] args)\n    {\n"
        "        var builder = WebApplication.CreateBuilder(args);\n        var root = new CompositionRoot();\n"
        f"        builder.Services{registrations or '.AddRouting()'};\n"
        "        var app = builder.Build();\n        app.UseRouting();\n" + maps
        + "        return app;\n    }\n}\n"))
    return domains, services


def csproj(references: list[str], web: bool = False) -> str:
    text = (
        '<Project Sdk="Microsoft.NET.Sdk">\n\n'
        "  <PropertyGroup>\n"
        "    <TargetFramework>net10.0</TargetFramework>\n"
        "    <ImplicitUsings>enable</ImplicitUsings>\n"
        "    <Nullable>enable</Nullable>\n"
        "  </PropertyGroup>\n"
    )
    if web:  # the shared framework ships with the SDK: no package restore needed
        text += '\n  <ItemGroup>\n    <FrameworkReference Include="Microsoft.AspNetCore.App" />\n  </ItemGroup>\n'
    if references:
        text += "\n  <ItemGroup>\n"
        for ref in sorted(set(references)):
            text += f'    <ProjectReference Include="..\\{ref}\\{ref}.csproj" />\n'
        text += "  </ItemGroup>\n"
    return text + "\n</Project>\n"


def generate(out_dir: Path, lines: int, seed: int, projects: int | None) -> tuple[int, int, int]:
    rng = random.Random(seed)
    project_count = projects if projects is not None else max(3, lines // 8000)
    layout = layout_for(project_count)
    out = Output(out_dir)

    for name, text in KERNEL_FILES.items():
        out.add(f"src/{KERNEL_NS}/Kernel/{name}", text)
    for a in range(layout.apis):
        out.add(f"src/{layout.api_ns(a)}/ControllerBase.cs", fill(CONTROLLER_BASE, NS=layout.api_ns(a)))

    features = make_features(rng, layout, lines, out)

    refs: dict[str, list[str]] = {}
    for d in range(layout.domains):
        refs[layout.domain_ns(d)] = [] if d == 0 else [KERNEL_NS]
    for s in range(layout.services):
        refs[layout.service_ns(s)] = [KERNEL_NS]
    for f in features:
        sns = layout.service_ns(f.service)
        refs[sns].append(layout.domain_ns(f.domain))
        for d in f.deps:
            dep = features[d]
            refs[sns].append(layout.domain_ns(dep.domain))
            if dep.service != f.service:
                refs[sns].append(layout.service_ns(dep.service))
    for a in range(layout.apis):
        domains, services = render_composition_root(a, features, layout, out)
        refs[layout.api_ns(a)] = [KERNEL_NS, *domains, *services]

    for name, references in refs.items():
        out.add(f"src/{name}/{name}.csproj", csproj([r for r in references if r != name],
                                                    web=name.startswith("Bench.Api")))

    solution = '<Solution>\n  <Folder Name="/src/">\n'
    for name in sorted(refs):
        solution += f'    <Project Path="src/{name}/{name}.csproj" />\n'
    solution += "  </Folder>\n</Solution>\n"
    out.add("Bench.slnx", solution)
    isolation = "<Project>\n  <!-- Keeps MSBuild from importing files above the generated solution. -->\n</Project>\n"
    out.add("Directory.Build.props", isolation)
    out.add("Directory.Build.targets", isolation)
    out.add(MARKER, f"lines={lines} seed={seed} projects={project_count}\n")

    out.write()
    cs_files = sum(1 for p in out.files if p.endswith(".cs"))
    return len(refs), cs_files, out.cs_lines()


def prepare(out_dir: Path, force: bool) -> None:
    if not out_dir.exists() or not any(out_dir.iterdir()):
        return
    if not (out_dir / MARKER).exists():
        raise SystemExit(f"{out_dir} is not empty and was not made by this script; refusing to touch it")
    if not force:
        raise SystemExit(f"{out_dir} already holds a generated solution; pass --force to replace it")
    shutil.rmtree(out_dir / "src", ignore_errors=True)
    for name in ("Bench.slnx", "Directory.Build.props", "Directory.Build.targets", MARKER):
        (out_dir / name).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out_dir", type=Path, help="directory to write the solution into")
    parser.add_argument("--lines", type=int, default=100_000, help="approximate C# lines (default 100000)")
    parser.add_argument("--seed", type=int, default=42, help="random seed (default 42)")
    parser.add_argument("--projects", type=int, default=None, help="project count (default lines/8000, min 3)")
    parser.add_argument("--force", action="store_true", help="replace a previously generated solution")
    args = parser.parse_args(argv)
    if args.lines < 1000:
        parser.error("--lines must be at least 1000")
    if args.projects is not None and args.projects < 3:
        parser.error("--projects must be at least 3")
    prepare(args.out_dir, args.force)
    projects, files, lines = generate(args.out_dir, args.lines, args.seed, args.projects)
    print(f"generated {args.out_dir}: {projects} projects, {files} files, {lines} lines (seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
