"""roslyn/compose.py: the environment docker-compose services set, as configuration keys of the project their
Dockerfile builds (the subset of YAML compose files use)."""

from __future__ import annotations

import json
from pathlib import Path

from roslynmap.roslyn.compose import compose_facts


def test_services_are_joined_by_name_across_the_compose_files_of_a_folder(tmp_path: Path) -> None:
    deploy = tmp_path / "deploy"
    deploy.mkdir()
    (deploy / "docker-compose.yml").write_text(
        "version: '3.4'\n"
        "services:\n"
        "  basket-api:\n"
        "    image: shop/basket\n"
        "    build:\n"
        "      context: ..\n"
        "      dockerfile: src/Basket.API/Dockerfile   # the project's folder\n"
        "  spa:\n"
        "    build: ../src/Spa\n"
        "  redis:\n"
        "    image: redis\n"
        "    environment:\n"
        "      - REDIS_PASSWORD=x\n"
        "networks:\n"
        "  default:\n")
    (deploy / "docker-compose.override.yml").write_text(
        "services:\n"
        "  basket-api:\n"
        "    environment:\n"
        "      # a comment line\n"
        "      - ASPNETCORE_URLS=http://0.0.0.0:80\n"
        "      - \"ConnectionStrings__Redis=redis:6379\"\n"
        "      - GRPC_PORT=81\n"
        "      - IdentityUrl\n"
        "    ports:\n"
        "      - \"5103:80\"\n"
        "  spa:\n"
        "    environment:\n"
        "      Spa__Title: 'Shop'\n")
    rows = compose_facts(tmp_path)

    def basket(value: str) -> dict[str, str]:
        return {"value": value, "source": "docker_compose", "service": "basket-api",
                "built_from": "src/Basket.API/Dockerfile"}
    assert [(r.file, r.line, r.key, json.loads(r.detail)) for r in rows] == [
        ("deploy/docker-compose.override.yml", 5, "ASPNETCORE_URLS", basket("http://0.0.0.0:80")),
        ("deploy/docker-compose.override.yml", 6, "ConnectionStrings:Redis", basket("redis:6379")),
        ("deploy/docker-compose.override.yml", 7, "GRPC_PORT", basket("81")),
        ("deploy/docker-compose.override.yml", 8, "IdentityUrl", basket("")),
        ("deploy/docker-compose.override.yml", 13, "Spa:Title",
         {"value": "Shop", "source": "docker_compose", "service": "spa", "built_from": "src/Spa/Dockerfile"})]


def test_a_build_context_above_the_repository_is_no_project(tmp_path: Path) -> None:
    (tmp_path / "compose.yaml").write_text(
        "services:\n  api:\n    build:\n      context: ../elsewhere\n    environment:\n      - Key=1\n")
    assert compose_facts(tmp_path) == []


def test_a_dockerfile_names_its_project_relative_to_its_workdir_in_the_container(tmp_path: Path) -> None:
    """modular-monolith's src/Dockerfile (context src/): the sources are copied under WORKDIR /src, and a later stage
    (`FROM build AS publish`, in WORKDIR /src/API/App.Api) publishes "App.Api.csproj": src/API/App.Api/App.Api.csproj.
    A stage from an image starts over: its project line is relative to its own WORKDIR."""
    (tmp_path / "src" / "API" / "App.Api").mkdir(parents=True)
    (tmp_path / "src" / "API" / "App.Api" / "App.Api.csproj").write_text("<Project />")
    (tmp_path / "src" / "Tests").mkdir()
    (tmp_path / "src" / "Tests" / "App.Tests.csproj").write_text("<Project />")
    (tmp_path / "src" / "Dockerfile").write_text(
        "FROM mcr.microsoft.com/dotnet/sdk:8.0 AS build\n"
        "WORKDIR /src\n"
        "COPY [\"API/App.Api/App.Api.csproj\", \"API/App.Api/\"]\n"
        "RUN dotnet restore \"API/App.Api/App.Api.csproj\"\n"
        "COPY . .\n"
        "WORKDIR \"/src/API/App.Api\"\n"
        "RUN dotnet build ../../Tests/App.Tests.csproj \\\n"
        "    -c Release\n"
        "\n"
        "FROM build AS publish\n"
        "RUN dotnet publish \"App.Api.csproj\" -c Release -o /app/publish\n"
        "\n"
        "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n"
        "WORKDIR /app\n"
        "COPY --from=publish /app/publish .\n")
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  backend:\n    build:\n      context: ./src/\n    environment:\n"
        "      - Meetings_MeetingsConnectionString=Server=db\n")
    assert [(r.key, json.loads(r.detail)["built_from"]) for r in compose_facts(tmp_path)] == [
        ("Meetings_MeetingsConnectionString", "src/API/App.Api/App.Api.csproj")]
