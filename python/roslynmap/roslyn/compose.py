"""Configuration keys docker-compose files set as environment variables, as `ConfigDefinition` facts.

ASP.NET Core reads environment variables into configuration (`EventBus__UserName` is `EventBus:UserName`), and a
containerised solution sets many keys only there (eShopOnContainers: `EventBusUserName`, `IdentityUrl`,
`GRPC_PORT`... in docker-compose.override.yml). A service's keys belong to the project its Dockerfile builds:
services are joined by name across the compose files of one folder (the image and build in docker-compose.yml,
the environment in docker-compose.override.yml). Only the subset of YAML compose files use is read: block
mappings by indentation, `- NAME=value` lists and `NAME: value` maps under `environment:`.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from roslynmap.model.errors import RoslynMapError
from roslynmap.model.readable import readable_file, repository_files
from roslynmap.model.records import FactRecord

_NAMES = ("docker-compose*.yml", "docker-compose*.yaml", "compose*.yml", "compose*.yaml")
_ENTRY = re.compile(r"^(\s*)([\w.-]+):\s*(.*?)\s*$")  # `name:` or `name: value`


@dataclass
class Service:
    context: str | None = None
    dockerfile: str | None = None
    environment: list[tuple[str, str, str, int]] = field(default_factory=list)  # (name, value, file, line)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _unquote(text: str) -> str:
    text = text.strip()
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


def _environment_entry(text: str) -> tuple[str, str] | None:
    """`- NAME=value`, `- "NAME=value"`, `- NAME` or `NAME: value`: the variable and its value."""
    text = text.strip()
    if text.startswith("- "):
        item = _unquote(text[2:])
        name, _, value = item.partition("=")
    else:
        match = _ENTRY.match(text)
        if not match:
            return None
        name, value = match.group(2), _unquote(match.group(3))
    name = name.strip()
    return (name, value) if re.fullmatch(r"[A-Za-z_][\w.]*", name) else None


def _services(lines: list[str], rel: str) -> Iterator[tuple[str, Service]]:
    """The services of one compose file, as far as their build and environment go."""
    services_at = next((i for i, line in enumerate(lines) if line.rstrip() == "services:"), None)
    if services_at is None:
        return
    service_indent: int | None = None
    name, service, block, block_indent = "", Service(), "", 0
    for number, raw in enumerate(lines[services_at + 1:], start=services_at + 2):
        line = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = _indent(line)
        if indent == 0:
            break  # the next top-level section (networks:, volumes:)
        if service_indent is None:
            service_indent = indent
        if indent == service_indent:
            if name:
                yield name, service
            match = _ENTRY.match(line)
            name, service, block = (match.group(2), Service(), "") if match else ("", Service(), "")
            continue
        if not name:
            continue
        match = _ENTRY.match(line)
        if block and indent > block_indent:
            if block == "environment" and (entry := _environment_entry(line)):
                service.environment.append((*entry, rel, number))
            elif block == "build" and match and match.group(2) in ("context", "dockerfile"):
                setattr(service, match.group(2), _unquote(match.group(3)))
            continue
        block = ""
        if match and match.group(2) in ("environment", "build"):
            if match.group(2) == "build" and match.group(3):
                service.context = _unquote(match.group(3))  # `build: ./path`
            else:
                block, block_indent = match.group(2), indent
    if name:
        yield name, service


def _normal(path: PurePosixPath) -> str | None:
    """A repository path without `.` and `..` parts, or None when it leaves the repository."""
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in (".", "/", ""):
            parts.append(part)
    return "/".join(parts)


def _build_paths(folder: PurePosixPath, service: Service) -> tuple[str, str] | None:
    """The repository paths of the build context and the Dockerfile a service builds (its project's folder holds
    the Dockerfile, or the Dockerfile names the project)."""
    if service.context is None and service.dockerfile is None:
        return None
    context = folder / (service.context or ".")
    dockerfile = _normal(context / (service.dockerfile or "Dockerfile"))
    if dockerfile is None:
        return None
    return _normal(context) or "", dockerfile


# `dotnet publish ... ./src/Blogifier/Blogifier.csproj` in a Dockerfile's RUN line: the project it builds.
_DOTNET_BUILD = re.compile(r"\bdotnet\W+(?:publish|build)\b.*?([\w./\\-]+\.csproj)", re.IGNORECASE)
_INSTRUCTION = re.compile(r"^([A-Za-z]+)\s+(.*)$")


@dataclass
class _Stage:
    """Where a build stage stands: its WORKDIR and what its COPY lines put where (container path, context path)."""
    workdir: PurePosixPath = field(default_factory=lambda: PurePosixPath("/"))
    copies: list[tuple[PurePosixPath, str, bool]] = field(default_factory=list)  # (destination, source, to a folder)


def _instructions(text: str) -> Iterator[tuple[str, str]]:
    """(INSTRUCTION, its arguments) of a Dockerfile, continued lines joined."""
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#") or not (pending or line):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if match := _INSTRUCTION.match(line):
            yield match[1].upper(), match[2].strip()


def _arguments(text: str) -> list[str]:
    """An instruction's arguments: its JSON array form, else its words unquoted."""
    if text.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, list):
            return [str(v) for v in value]
    return [_unquote(word) for word in text.split()]


def _in_context(stage: _Stage, container: PurePosixPath) -> list[PurePosixPath]:
    """The context paths a container path was copied from, the last COPY first."""
    out = []
    for destination, source, to_folder in reversed(stage.copies):
        landed = destination / PurePosixPath(source).name if to_folder else destination
        if container == landed:  # a file copied alone (`COPY ["App/App.csproj", "App/"]`)
            out.append(PurePosixPath(source))
        if container.is_relative_to(destination):  # a folder copied whole (`COPY . .`)
            out.append(PurePosixPath(source) / container.relative_to(destination))
    return out


def _built_project(root: Path, dockerfile: str, context: str) -> str | None:
    """The project file a Dockerfile builds (Blogifier's root Dockerfile publishes ./src/Blogifier/Blogifier.csproj,
    modular-monolith's src/Dockerfile `dotnet publish "CompanyName.MyMeetings.API.csproj"` in its
    WORKDIR /src/API/CompanyName.MyMeetings.API): read from its `dotnet publish`/`dotnet build` line, a path in the
    container, relative to the stage's WORKDIR, mapped back to the build context through the COPY lines that put it
    there (else taken relative to the context); one that exists. None when it names none."""
    try:
        text = readable_file(root, dockerfile).read_text(encoding="utf-8-sig", errors="replace")
    except RoslynMapError:
        return None
    stages: dict[str, _Stage] = {}
    stage = _Stage()
    found: list[tuple[bool, str]] = []  # (not a publish line, the project)
    for instruction, arguments in _instructions(text):
        words = _arguments(arguments)
        if instruction == "FROM":
            names = [w for w in words if not w.startswith("--")]
            base = stages.get(names[0].lower()) if names else None  # `FROM build AS publish` goes on from build
            stage = _Stage(base.workdir, list(base.copies)) if base else _Stage()
            if len(names) >= 3 and names[1].upper() == "AS":
                stages[names[2].lower()] = stage
        elif instruction == "WORKDIR" and words:
            stage.workdir = PurePosixPath(posixpath.normpath(stage.workdir / words[0]))
        elif instruction in ("COPY", "ADD"):
            if any(w.startswith("--from") for w in words):
                continue  # from another stage or image, not from the context
            paths = [w for w in words if not w.startswith("--")]
            if len(paths) < 2:
                continue
            destination = PurePosixPath(posixpath.normpath(stage.workdir / paths[-1]))
            to_folder = paths[-1].endswith("/") or len(paths) > 2
            stage.copies.extend((destination, source, to_folder) for source in paths[:-1])
        elif instruction == "RUN":
            for match in _DOTNET_BUILD.finditer(arguments):
                named = match[1].replace("\\", "/")
                container = PurePosixPath(posixpath.normpath(stage.workdir / named))
                for candidate in [*_in_context(stage, container), PurePosixPath(named)]:
                    path = _normal(PurePosixPath(context) / candidate)
                    if path and (root / path).is_file():
                        found.append(("publish" not in match[0].lower(), path))
                        break
    # The app a publish line makes before a build line (which may build its tests first).
    return min(found, key=lambda f: f[0])[1] if found else None


def compose_facts(root: Path) -> list[FactRecord]:
    """One ConfigDefinition per environment variable a service the solution builds sets (ASPNETCORE_URLS too: the
    host reads it, and `Configuration["ASPNETCORE_URLS"]` does)."""
    by_folder: dict[PurePosixPath, dict[str, Service]] = {}
    for path in repository_files(root, _NAMES):
        rel = path.relative_to(root).as_posix()
        lines = path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
        services = by_folder.setdefault(PurePosixPath(rel).parent, {})
        for name, found in _services(lines, rel):
            joined = services.setdefault(name, Service())
            joined.context = joined.context or found.context
            joined.dockerfile = joined.dockerfile or found.dockerfile
            joined.environment.extend(found.environment)
    rows: list[FactRecord] = []
    for folder, services in by_folder.items():
        for name, service in services.items():
            paths = _build_paths(folder, service)
            if paths is None:
                continue  # an image the solution does not build (a database, a broker): not its configuration
            context, built = paths
            built = _built_project(root, built, context) or built  # its project, when the Dockerfile names it
            for variable, value, rel, line in service.environment:
                detail = {"value": value[:80], "source": "docker_compose", "service": name, "built_from": built}
                rows.append(FactRecord("ConfigDefinition", None, None, rel, line, 1, "high",
                                       variable.replace("__", ":"), json.dumps(detail)))
    return rows
