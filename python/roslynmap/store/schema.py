"""The baseline schema. Bump SCHEMA_VERSION on any change; readers refuse other versions."""

from __future__ import annotations

SCHEMA_VERSION = 5

TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE projects(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, path TEXT NOT NULL, target_framework TEXT,
  target_frameworks TEXT, documents INTEGER, restored INTEGER, load_errors TEXT,
  error_count INTEGER DEFAULT 0, missing_reference_errors INTEGER DEFAULT 0, first_errors TEXT,
  semantic_level TEXT, symbol_count INTEGER DEFAULT 0, ref_count INTEGER DEFAULT 0,
  -- schema 4: how the target framework was chosen, where restore put the assets, and the evidence the
  -- semantic level is decided from (docs/tools.md, "Semantic levels").
  framework_choice TEXT, skipped_frameworks TEXT, assets_file TEXT, core_library_resolved INTEGER,
  resolved_refs INTEGER DEFAULT 0, unresolved_refs INTEGER DEFAULT 0, level_reason TEXT,
  -- schema 5: Exe or Library (projects_graph, symbols_unused).
  output_kind TEXT);
-- schema 5: the dependency graph. kind 'project': a ProjectReference (target_project_id, path);
-- kind 'package': a direct PackageReference (version resolved by restore, requested range, implicit).
CREATE TABLE project_deps(project_id INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, version TEXT,
  requested TEXT, target_project_id INTEGER, path TEXT, implicit INTEGER DEFAULT 0);
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, project_id INTEGER,
  line_count INTEGER);
CREATE TABLE symbols(
  id INTEGER PRIMARY KEY, symbol_id TEXT NOT NULL, stable_id TEXT NOT NULL, project_id INTEGER NOT NULL,
  name TEXT NOT NULL, kind TEXT NOT NULL, fqn TEXT, signature TEXT, doc TEXT, namespace TEXT,
  container_id TEXT, file_id INTEGER, line INTEGER, col INTEGER, end_line INTEGER, end_col INTEGER,
  visibility TEXT, is_static INTEGER, arity INTEGER);
CREATE TABLE symbol_parts(symbol_id TEXT NOT NULL, project_id INTEGER, file_id INTEGER, line INTEGER,
  col INTEGER, end_line INTEGER);
-- Every symbol id a reference names, interned: refs hold integer keys (smaller rows, and grouping
-- thousands of callers compares integers, not 60-byte strings). Overlays add keys >= OVERLAY_ID_BASE.
CREATE TABLE ids(key INTEGER PRIMARY KEY, symbol_id TEXT NOT NULL UNIQUE);
CREATE TABLE refs(
  id INTEGER PRIMARY KEY, target_key INTEGER, target_name TEXT NOT NULL, target_kind TEXT, from_key INTEGER,
  project_id INTEGER, file_id INTEGER, line INTEGER, col INTEGER, end_col INTEGER, kind TEXT NOT NULL,
  receiver TEXT, candidates TEXT);  -- unresolved only: JSON list of the ids Roslyn rejected (ambiguous...)
-- Framework and package symbols references name (from metadata): searchable, and accepted as targets.
CREATE TABLE externals(id INTEGER PRIMARY KEY, symbol_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
  kind TEXT NOT NULL, fqn TEXT, container_id TEXT, assembly TEXT, signature TEXT, namespace TEXT);
CREATE TABLE relations(type_id TEXT NOT NULL, related_id TEXT, related_name TEXT, kind TEXT NOT NULL,
  project_id INTEGER, file_id INTEGER);
CREATE TABLE facts(id INTEGER PRIMARY KEY, kind TEXT NOT NULL, symbol_id TEXT, project_id INTEGER,
  file_id INTEGER, line INTEGER, col INTEGER, confidence TEXT, key TEXT NOT NULL, detail TEXT);
CREATE TABLE diagnostics(project_id INTEGER, file_id INTEGER, line INTEGER, col INTEGER,
  severity TEXT, code TEXT, message TEXT);
CREATE VIRTUAL TABLE symbols_fts USING fts5(name_terms, signature, doc, content='');
CREATE VIRTUAL TABLE externals_fts USING fts5(name_terms, signature, content='');
"""

# Built after the bulk insert: cheaper than maintaining them row by row.
INDEXES = """
CREATE INDEX symbols_by_id ON symbols(symbol_id);
CREATE INDEX symbols_by_stable ON symbols(stable_id);
CREATE INDEX symbols_by_file ON symbols(file_id, line);
CREATE INDEX symbols_by_kind ON symbols(kind, name);
CREATE INDEX symbols_by_name ON symbols(name);
CREATE INDEX symbols_by_container ON symbols(container_id);
CREATE INDEX symbols_by_namespace ON symbols(namespace);
CREATE INDEX symbol_parts_by_id ON symbol_parts(symbol_id);
-- from_key in the target index: callers of a method are counted and ranked from the index alone.
CREATE INDEX refs_by_target ON refs(target_key, kind, from_key);
CREATE INDEX refs_by_from ON refs(from_key, kind);
CREATE INDEX refs_by_file ON refs(file_id, line);
CREATE INDEX refs_unresolved ON refs(target_name) WHERE target_key IS NULL;
CREATE INDEX relations_by_type ON relations(type_id);
CREATE INDEX relations_by_related ON relations(related_id);
CREATE INDEX files_by_path ON files(path);
CREATE INDEX relations_by_file ON relations(file_id);
CREATE INDEX facts_by_kind ON facts(kind, key);
CREATE INDEX facts_by_symbol ON facts(symbol_id);
CREATE INDEX facts_by_file ON facts(file_id, line);
CREATE INDEX externals_by_name ON externals(name);
CREATE INDEX externals_by_container ON externals(container_id);
"""
