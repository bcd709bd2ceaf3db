/**
 * The original's CSV spreadsheet → a graph. One row per node; see docs/spreadsheets.md for the
 * format and where this reader differs from the original's (it fixes the original's list fields,
 * numeric cells and assignment parsing).
 */
import { createHash } from "node:crypto";
import {
  ACTIONS,
  FIELDS,
  instructionKind,
  isBuiltinAction,
  isFunctionKind,
  ORIGINAL_ACTION_NAMES,
} from "@autograms/graph";
import { codeProblems, validateGraph } from "@autograms/sandbox";
import type { Action, FunctionInfo, Graph, GraphNode, ToolInfo } from "@autograms/graph";
import { parseCsv, type CsvCell } from "./csv-text.js";
import {
  columnFor,
  FIELD_COLUMN_NAMES,
  letter,
  LETTERED,
  letteredPrefix,
  NODE_NAME_FIELDS,
  normalizeHeader,
  type CellKind,
  type Column,
  type LetteredColumn,
} from "./columns.js";
import { readCallable, readInstruction, splitList, type Callable } from "./cells.js";
import { pythonIn, pythonPlaces, translatePlace, type CodeHolder } from "./python-fields.js";
import { DIAGNOSTICS, diagnosticMessage, type MessageArgs, type MessageName } from "../diagnostics/catalogue.js";
import { closest } from "../diagnostics/suggest.js";
import { columnLetter, type SpreadsheetDiagnostic, type SpreadsheetDiagnosticCode } from "./diagnostics.js";

export interface ImportOptions {
  /** File name the diagnostics carry. */
  fileName?: string;
  /** The graph's `agent` (default: "Spreadsheet"). */
  agent?: string;
  /**
   * The tools the sheet's code may call, as the graph's `tools` table (name → module and export):
   * a sheet's rows name no modules. Without them, a call of a function that is none of the
   * evaluator's is an error at its cell.
   */
  tools?: Record<string, ToolInfo>;
}

export interface SpreadsheetImport {
  /** null when there are errors. */
  graph: Graph | null;
  diagnostics: SpreadsheetDiagnostic[];
}

/** Where a value came from, for diagnostics: a cell, or a whole row. */
interface Place {
  row: number;
  cell?: CsvCell;
  column?: number;
}

interface HeaderColumn {
  index: number;
  header: string;
  column: Column;
}

/** One data row read into fields, before functions are resolved. */
interface RowNode {
  row: number;
  cells: Map<string, Place>;
  node: Record<string, unknown> & { name: string; action: Action; transitions: string[] };
  callable?: Callable;
  /** A code cell read as `x = expr`, kept whole in case x turns out to be a declared variable. */
  codeCell?: string;
}

const actionNames = (): string => [...ACTIONS, ...Object.keys(ORIGINAL_ACTION_NAMES)].join(", ");

class SheetReader {
  readonly diagnostics: SpreadsheetDiagnostic[] = [];
  private rows: CsvCell[][] = [];
  /**
   * The sheet's code is the evaluator's language (a sheet autograms-ts wrote: it has `code` rows
   * or an `assign` column), not the original's Python: kept as written, never translated.
   */
  private evaluatorCode = false;

  constructor(
    private readonly text: string,
    private readonly file: string,
    /** What the sheet's code may call besides the evaluator's functions. */
    private readonly tools: Record<string, ToolInfo>,
  ) {}

  /** Message `name` of diagnostic `code` (see the catalogue), at `place`. */
  report<C extends SpreadsheetDiagnosticCode, M extends MessageName<C>>(
    code: C,
    name: M,
    place: Place,
    ...args: MessageArgs<C, M>
  ): void {
    const message = diagnosticMessage(code, name, ...args);
    const cell = place.cell ?? this.rows[place.row - 1]?.[0];
    const line = cell?.line ?? 1;
    const column = cell?.column ?? 1;
    const width = cell && !cell.value.includes("\n") ? Math.max(cell.value.length, 1) : 1;
    const sheetColumn = place.column === undefined ? undefined : columnLetter(place.column);
    const where = `row ${place.row}${sheetColumn === undefined ? "" : `, column ${sheetColumn}`}`;
    this.diagnostics.push({
      code,
      severity: DIAGNOSTICS[code].severity,
      message: `${where}: ${message}`,
      file: this.file,
      line,
      column,
      endLine: line,
      endColumn: column + width,
      row: place.row,
      ...(sheetColumn === undefined ? {} : { sheetColumn }),
    });
  }

  get hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }

  read(agent: string, named: boolean): Graph | null {
    const table = parseCsv(this.text);
    this.rows = table.rows;
    for (const e of table.errors) {
      const at = { line: e.line, column: e.column, value: "" };
      this.report("csv_syntax", "csv", { row: e.row + 1, cell: at, column: e.cell }, { text: e.message });
    }
    const header = this.readHeader();
    if (!header) return null;
    const actionColumn = header.find((h) => h.column.kind === "field" && h.column.field === "action")?.index;
    this.evaluatorCode =
      header.some((h) => h.column.kind === "field" && h.column.field === "assign") ||
      this.rows.slice(1).some((cells) => cells[actionColumn ?? -1]?.value.trim().toLowerCase() === "code");
    const rowNodes: RowNode[] = [];
    this.rows.slice(1).forEach((cells, i) => {
      if (cells.every((c) => c.value.trim() === "")) return;
      const node = this.readRow(i + 2, cells, header);
      if (node) rowNodes.push(node);
    });
    if (rowNodes.length === 0 && !this.hasErrors) {
      this.report("csv_empty", "spreadsheet_header", { row: 1 });
    }
    const functions = this.resolveFunctions(rowNodes);
    if (this.hasErrors) return null;
    if (!this.evaluatorCode) {
      keepDeclaredAssignments(rowNodes, functions);
      for (const r of rowNodes) this.translateRow(r);
      if (this.hasErrors) return null;
    }
    this.checkCodeCells(rowNodes);
    if (this.hasErrors) return null;
    const graph: Graph = {
      format: "autograms-graph",
      version: 1,
      // A run-time error then names the sheet and the row: `recruiter.csv:12:1`.
      ...(named ? { source: { file: this.file, sha256: createHash("sha256").update(this.text).digest("hex") } } : {}),
      agent,
      globals: {},
      functions,
      ...(Object.keys(this.tools).length > 0 && { tools: this.tools }),
      nodes: rowNodes.map((r) => ({
        ...inFieldOrder(r.node),
        loc: { line: r.row, column: 1, endLine: r.row, endColumn: 1 },
      })),
    };
    this.checkGraph(graph, rowNodes);
    return this.hasErrors ? null : graph;
  }

  private readHeader(): HeaderColumn[] | undefined {
    const cells = this.rows[0];
    if (!cells || cells.every((c) => c.value.trim() === "")) {
      this.report("csv_empty", "spreadsheet_first", { row: 1 });
      return undefined;
    }
    const columns: HeaderColumn[] = [];
    const seen = new Map<string, number>();
    cells.forEach((cell, index) => {
      const place = { row: 1, cell, column: index };
      if (this.isIndexColumn(cell.value, index)) return;
      const column = columnFor(cell.value);
      if (!column) {
        if (cell.value.trim() === "") this.report("csv_unknown_column", "no_header", place);
        else
          this.report("csv_unknown_column", "unknown", place, { value: cell.value, suggestion: suggest(cell.value) });
        return;
      }
      const key =
        column.kind === "field"
          ? column.field
          : column.kind === "lettered"
            ? `${column.field}/${column.index}`
            : "lineno";
      const previous = seen.get(key);
      if (previous !== undefined) {
        this.report("csv_duplicate_column", "duplicate", place, {
          value: cell.value,
          columnLetter: columnLetter(previous),
          previousValue: cells[previous]?.value,
        });
        return;
      }
      seen.set(key, index);
      columns.push({ index, header: cell.value, column });
    });
    for (const required of ["name", "action"]) {
      if (!seen.has(required)) this.report("csv_missing_column", "header_no", { row: 1 }, { required });
    }
    return this.hasErrors ? undefined : columns;
  }

  /** The row-number column pandas writes (empty or `Unnamed: 0` header, integers below). */
  private isIndexColumn(header: string, index: number): boolean {
    if (header.trim() !== "" && !/^unnamed:\s*\d+$/i.test(header.trim())) return false;
    return this.rows.slice(1).every((r) => /^\s*\d*\s*$/.test(r[index]?.value ?? ""));
  }

  private readRow(row: number, cells: CsvCell[], header: HeaderColumn[]): RowNode | undefined {
    const errorsBefore = this.diagnostics.length;
    const lastHeader = Math.max(...header.map((h) => h.index), this.rows[0]?.length ? this.rows[0].length - 1 : 0);
    cells.forEach((cell, index) => {
      if (index > lastHeader && cell.value.trim() !== "") {
        this.report(
          "csv_extra_cell",
          "filled_right",
          { row, cell, column: index },
          { shortText: shortText(cell.value) },
        );
      }
    });
    const places = new Map<string, Place>();
    const fields: Record<string, unknown> = {};
    const lettered = new Map<LetteredColumn["field"], { index: number; value: string; place: Place }[]>();
    for (const h of header) {
      const cell = cells[h.index];
      const place: Place = { row, column: h.index, ...(cell ? { cell } : {}) };
      const value = cell?.value ?? "";
      if (h.column.kind === "ignored" || value.trim() === "") continue;
      if (h.column.kind === "lettered") {
        const list = lettered.get(h.column.field) ?? [];
        list.push({ index: h.column.index, value, place });
        lettered.set(h.column.field, list);
        continue;
      }
      const parsed = this.readCell(h.column.cell, h.column.field, value, place);
      if (parsed !== undefined) {
        fields[h.column.field] = parsed;
        places.set(h.column.field, place);
      }
    }
    for (const [fieldName, items] of lettered) {
      items.sort((a, b) => a.index - b.index);
      const gap = items.findIndex((item, i) => item.index !== i);
      if (gap >= 0) {
        const item = items[gap] as (typeof items)[number];
        const prefix = letteredPrefix(fieldName);
        this.report("csv_choice_gap", "filled_but", item.place, {
          prefix,
          letter: letter(item.index),
          letter2: letter(gap),
        });
        continue;
      }
      fields[fieldName] = items.map((i) => i.value);
      places.set(fieldName, items[0]?.place as Place);
    }

    const rowPlace: Place = { row };
    const name = fields.name as string | undefined;
    const actionText = fields.action as string | undefined;
    if (name === undefined)
      this.report("csv_missing_cell", "node_no", placeOf(places, "name", rowPlace, header, "name"));
    if (actionText === undefined)
      this.report("csv_missing_cell", "node_no_action", placeOf(places, "action", rowPlace, header, "action"));
    if (fields.transitions === undefined)
      this.report(
        "csv_missing_cell",
        "node_no_transitions",
        placeOf(places, "transitions", rowPlace, header, "transitions"),
      );

    let action: Action | undefined;
    if (actionText !== undefined) {
      const normalized = actionText.trim().toLowerCase();
      const mapped = Object.hasOwn(ORIGINAL_ACTION_NAMES, normalized) ? ORIGINAL_ACTION_NAMES[normalized]! : normalized;
      if (isBuiltinAction(mapped)) action = mapped;
      else
        this.report("csv_unknown_action", "actions", places.get("action") as Place, {
          actionText,
          actionNames: actionNames(),
        });
    }
    if (this.diagnostics.length > errorsBefore || name === undefined || action === undefined) return undefined;
    fields.action = action;
    const trimmedName = name.trim();
    fields.name = trimmedName;
    let callable: Callable | undefined;
    const parsedName = readCallable(trimmedName);
    if (parsedName === "invalid") {
      this.report("csv_invalid_name", "looks_like", places.get("name") as Place, { trimmedName });
      return undefined;
    }
    if (parsedName) callable = parsedName;
    const cell = fields.instruction as string | undefined;
    this.readInstructionCell(fields, action, places);
    const codeCell = action === "code" && fields.assign !== undefined ? cell : undefined;
    return {
      row,
      cells: places,
      node: fields as RowNode["node"],
      ...(callable ? { callable } : {}),
      ...(codeCell === undefined ? {} : { codeCell }),
    };
  }

  private readCell(kind: CellKind, fieldName: string, value: string, place: Place): unknown {
    switch (kind) {
      case "text":
        return fieldName === "name" || fieldName === "action" || fieldName === "assign" ? value.trim() : value;
      case "list":
        return splitList(value);
      case "numbers": {
        const items = splitList(value).map((item) => Number(item));
        if (items.some((n) => !Number.isFinite(n) || n < 0)) {
          this.report("csv_invalid_number", "must_comma", place, { fieldName, shortText: shortText(value) });
          return undefined;
        }
        return items;
      }
      case "count": {
        const n = Number(value.trim());
        if (!Number.isInteger(n) || n < 0) {
          this.report("csv_invalid_number", "must_whole", place, { fieldName, shortText: shortText(value) });
          return undefined;
        }
        return n;
      }
      case "probability": {
        const n = Number(value.trim());
        if (!Number.isFinite(n) || n < 0 || n > 1 || value.trim() === "") {
          this.report("csv_invalid_number", "must_not", place, { fieldName, shortText: shortText(value) });
          return undefined;
        }
        return n;
      }
      case "json": {
        let parsed: unknown;
        try {
          parsed = JSON.parse(value);
        } catch {
          parsed = undefined;
        }
        if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
          this.report("csv_invalid_json", "must_object", place, { fieldName, shortText: shortText(value) });
          return undefined;
        }
        return parsed;
      }
    }
  }

  private readInstructionCell(fields: Record<string, unknown>, action: Action, places: Map<string, Place>): void {
    const cell = fields.instruction as string | undefined;
    const place = places.get("instruction");
    if (action === "code" && this.evaluatorCode) {
      // The evaluator's own code, whole: `count = count + 1` is a statement; the assignment has its column.
      fields.instruction = cell ?? "";
      return;
    }
    if (cell === undefined || !place) {
      // Every action but transition carries an instruction, even an empty one.
      if (instructionKind(action) !== "none") fields.instruction = "";
      return;
    }
    const read = readInstruction(action, cell);
    if (read.keptPrefix !== undefined) {
      this.report("csv_assignment_kept", "original_read", place, { keptPrefix: read.keptPrefix.replace(/\s/g, "") });
    }
    if (!this.evaluatorCode && (action === "code" || isFunctionKind(action))) {
      for (const m of read.instruction.matchAll(/(?<![\w$\\])\$([A-Za-z_]\w*)/g)) {
        this.report("csv_code_variable", "original_pasted", place, { variable: m[1] });
      }
    }
    fields.instruction = read.instruction;
    if (read.assign !== undefined) fields.assign = read.assign;
  }

  /**
   * Callable nodes `f(a, b)` become function entries named `f` (or `f()` if a node is already
   * named `f`); every reference to them is renamed. A function's kind is the action of the nodes
   * that call it.
   */
  private resolveFunctions(rows: RowNode[]): Record<string, FunctionInfo> {
    const functions: Record<string, FunctionInfo> = {};
    const rename = new Map<string, string>();
    const taken = new Set(rows.filter((r) => !r.callable).map((r) => r.node.name));
    const definedAt = new Map<string, RowNode>();
    for (const r of rows) {
      if (!r.callable) continue;
      const { name: fname, params } = r.callable;
      const first = definedAt.get(fname);
      if (first) {
        this.report("csv_duplicate_function", "already_defined", r.cells.get("name") as Place, {
          fname,
          row: first.row,
        });
        continue;
      }
      definedAt.set(fname, r);
      const entry = taken.has(fname) ? `${fname}()` : fname;
      rename.set(r.node.name, entry);
      rename.set(`${fname}()`, entry);
      r.node.name = entry;
      functions[fname] = { kind: "local_function", params, entry };
    }
    const kindFrom = new Map<string, RowNode>();
    for (const r of rows) {
      for (const key of NODE_NAME_FIELDS) {
        const list = r.node[key] as string[] | undefined;
        if (list) r.node[key] = list.map((t) => rename.get(t) ?? t);
      }
      const kind = r.node.action;
      if (!isFunctionKind(kind)) continue;
      const callee = /^\s*([^\s(]*)\s*\(/.exec(r.node.instruction as string)?.[1];
      const place = (r.cells.get("instruction") ?? r.cells.get("action")) as Place;
      const info = callee === undefined ? undefined : functions[callee];
      if (!info) {
        if (callee === undefined || callee === "")
          this.report("csv_unknown_function", "not_call", place, {
            kind,
            instruction: shortText(String(r.node.instruction)),
          });
        else this.report("csv_unknown_function", "undefined", place, { callee });
        continue;
      }
      const other = kindFrom.get(callee as string);
      if (other && other.node.action !== kind) {
        this.report("csv_function_kind", "called_here", r.cells.get("action") as Place, {
          callee,
          kind,
          action: other.node.action,
          row: other.row,
        });
        continue;
      }
      kindFrom.set(callee as string, r);
      info.kind = kind;
    }
    return functions;
  }

  /**
   * The original's Python in code, conditions, call arguments and `return` expressions, translated
   * into the evaluator's language (python-fields.ts), the Python kept in the node's `python` field
   * for an export in the original's format; what has no translation is an error at its cell.
   */
  private translateRow(r: RowNode): void {
    const node = r.node as Record<string, unknown> & RowNode["node"];
    const python: Record<string, string> = {};
    for (const place of pythonPlaces(node as unknown as CodeHolder)) {
      const t = translatePlace(node.action, place.field, place.value);
      if (t.kind === "translated") {
        python[place.field] = place.value;
        if (place.column === "transitions") node.transitions[Number(place.field.split("/")[1])] = t.code;
        else node[place.field] = t.code;
      } else if (t.kind === "untranslatable") {
        this.report("csv_invalid_code", "character_write", r.cells.get(place.column) ?? { row: r.row }, {
          problem: t.message,
          character: t.offset + 1,
          shortText: shortText(pythonIn(node.action, place.field, place.value)?.text ?? place.value),
        });
      }
    }
    if (Object.keys(python).length > 0) node.python = python;
  }

  /**
   * Code, conditions, call arguments and return expressions, checked with the evaluator's own
   * parser and surface: code may call the tools the import was given and nothing else, so a call
   * of a function that is none of the evaluator's (`frobnicate(word)`) is refused here, at its
   * cell, rather than when it runs.
   */
  private checkCodeCells(rows: RowNode[]): void {
    const callable = new Set(Object.keys(this.tools));
    const given = callable.size > 0 ? [...callable].join(", ") : "none";
    for (const r of rows) {
      const node = r.node as unknown as GraphNode;
      // What is wrong whatever the code may call; the rest are calls of functions it may not.
      const anyway = new Set(codeProblems(node).map((p) => `${p.field}\0${p.message}`));
      for (const problem of codeProblems(node, callable)) {
        const column = problem.field.startsWith("transitions") ? "transitions" : problem.field;
        const place = r.cells.get(column) ?? r.cells.get("instruction") ?? { row: r.row };
        if (anyway.has(`${problem.field}\0${problem.message}`))
          this.report("csv_invalid_code", "code_problem", place, { message: problem.message });
        else this.report("csv_invalid_code", "unknown_call", place, { message: problem.message, tools: given });
      }
    }
  }

  /** The graph format's own rules (validateGraph), reported at the row of the node concerned. */
  private checkGraph(graph: Graph, rows: RowNode[]): void {
    const result = validateGraph(graph);
    if (result.valid) return;
    for (const error of result.errors) {
      const match = /^\/nodes\/(\d+)(?:\/([a-z_]+))?/.exec(error.path);
      const r = match ? rows[Number(match[1])] : undefined;
      // A rule about a field the row leaves empty (transition_choices) is about its transitions.
      const place = r
        ? (r.cells.get(match?.[2] ?? "name") ?? r.cells.get("transitions") ?? r.cells.get("name") ?? { row: r.row })
        : { row: 1 };
      this.report("csv_invalid_graph", "graph_rule", place, { text: error.message });
    }
  }
}

/**
 * `x = expr` in code is the original's assignment (which creates x), unless the sheet declares x
 * (`let x`, `const x`, a parameter): then it is a plain statement, as the compiler writes one, and
 * stays whole. So a compiled graph's code comes back from its sheet unchanged.
 */
function keepDeclaredAssignments(rows: RowNode[], functions: Record<string, FunctionInfo>): void {
  const declared = new Set(Object.values(functions).flatMap((f) => f.params));
  for (const r of rows) {
    const declaration =
      r.node.action === "code" ? /^\s*(?:let|const|var)\s+([A-Za-z_$][\w$]*)/.exec(String(r.node.instruction)) : null;
    if (declaration) declared.add(declaration[1] as string);
  }
  for (const r of rows) {
    if (r.codeCell !== undefined && declared.has(String(r.node.assign))) {
      r.node.instruction = r.codeCell;
      delete r.node.assign;
    }
  }
}

function inFieldOrder(fields: Record<string, unknown>): GraphNode {
  const ordered: Record<string, unknown> = {};
  for (const { name } of FIELDS) if (fields[name] !== undefined) ordered[name] = fields[name];
  return ordered as unknown as GraphNode;
}

/** The place of a field's cell, or of the empty cell under its header. */
function placeOf(
  places: Map<string, Place>,
  fieldName: string,
  fallback: Place,
  header: HeaderColumn[],
  columnName: string,
): Place {
  const known = places.get(fieldName);
  if (known) return known;
  const h = header.find((c) => c.column.kind === "field" && c.column.field === columnName);
  return h ? { ...fallback, column: h.index } : fallback;
}

function shortText(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

function suggest(header: string): string {
  const candidates = [...FIELD_COLUMN_NAMES, ...Object.keys(LETTERED).map((p) => `${p}_a`)];
  const best = closest(normalizeHeader(header), candidates, 3);
  return best !== undefined ? ` (did you mean '${best}'?)` : "; see docs/spreadsheets.md for the columns";
}

/** Reads the original's CSV spreadsheet format. Never throws: every problem is a diagnostic. */
export function importSpreadsheet(csvText: string, options: ImportOptions = {}): SpreadsheetImport {
  const reader = new SheetReader(csvText, options.fileName ?? "spreadsheet.csv", options.tools ?? {});
  try {
    const graph = reader.read(options.agent ?? "Spreadsheet", options.fileName !== undefined);
    return { graph: reader.hasErrors ? null : graph, diagnostics: reader.diagnostics };
  } catch (err) {
    reader.report(
      "csv_internal_error",
      "importer_failed",
      { row: 1 },
      { detail: err instanceof Error ? err.message : String(err) },
    );
    return { graph: null, diagnostics: reader.diagnostics };
  }
}
