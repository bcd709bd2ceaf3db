import { describe, expect, it } from "vitest";
import { parseTemplate, renderTemplate, TemplateError } from "../../runtime/src/engine/template.js";

const vars: Record<string, unknown> = {
  name: "Ada",
  n: 3,
  list: [1, 2],
  obj: { a: 1 },
  empty: "",
  none: null,
  flag: false,
  café: "crème",
  x_1: "X",
};
const fill = (text: string) => {
  const r = renderTemplate(parseTemplate(text), (k) => vars[k] as never);
  if (!r.ok) throw new Error(`missing ${r.missing.join(",")}`);
  return r.text;
};

describe("$variable substitution", () => {
  it("replaces $name with the longest run of letters, digits and _", () => {
    expect(fill("Hello $name!")).toBe("Hello Ada!");
    expect(fill("$x_1 y")).toBe("X y");
    expect(renderTemplate(parseTemplate("$x_1y"), (k) => vars[k] as never)).toEqual({ ok: false, missing: ["x_1y"] });
    expect(fill("n=$n, done")).toBe("n=3, done");
    expect(fill("unicode $café.")).toBe("unicode crème.");
  });

  it("delimits a name with ${name} when letters follow", () => {
    expect(fill("${name}s book")).toBe("Adas book");
    expect(fill("${n}rd")).toBe("3rd");
  });

  it("inserts arrays and objects as JSON, other values as text", () => {
    expect(fill("$list $obj $flag")).toBe('[1,2] {"a":1} false');
  });

  it("keeps $ at the end, before a digit, before '.', and before punctuation", () => {
    expect(fill("costs 5$")).toBe("costs 5$");
    expect(fill("costs $5")).toBe("costs $5");
    expect(fill("a $.b")).toBe("a $.b");
    expect(fill("($) and $!")).toBe("($) and $!");
  });

  it("refuses a space after $ as the original does", () => {
    expect(() => parseTemplate("costs $ 5")).toThrow(TemplateError);
    expect(() => parseTemplate("costs $ 5")).toThrow(/space after '\$'/);
  });

  it("unescapes \\$, \\?{ and \\}", () => {
    expect(fill("price \\$name")).toBe("price $name");
    expect(fill("\\?{ literal \\}")).toBe("?{ literal }");
    expect(fill("a \\n b")).toBe("a \\n b");
  });

  it("never reads '=' as an assignment", () => {
    expect(fill("Note that 2+2=4 always, $name")).toBe("Note that 2+2=4 always, Ada");
    expect(fill("x=What is 2+2")).toBe("x=What is 2+2");
  });

  it("reports every undefined or null variable outside ?{}", () => {
    const r = renderTemplate(parseTemplate("$missing and $none and $missing"), (k) => vars[k] as never);
    expect(r).toEqual({ ok: false, missing: ["missing", "none"] });
  });

  it("keeps ?{…} only when all its variables are defined and not null", () => {
    expect(fill("Hi?{ $name}.")).toBe("Hi Ada.");
    expect(fill("Hi?{ $missing}.")).toBe("Hi.");
    expect(fill("Hi?{ $name and $none}.")).toBe("Hi.");
    expect(fill("?{[$empty]}")).toBe("[]");
    expect(fill("?{ ${n}rd }")).toBe(" 3rd ");
  });

  it("treats plain braces as text", () => {
    expect(fill("{ $name }")).toBe("{ Ada }");
  });

  it("refuses unclosed and nested optional segments, and malformed ${", () => {
    expect(() => parseTemplate("?{ $name")).toThrow(/without its closing/);
    expect(() => parseTemplate("?{ a ?{ b } }")).toThrow(/do not nest/);
    expect(() => parseTemplate("${a b}")).toThrow(/must enclose a variable name/);
    expect(() => parseTemplate("${name")).toThrow(/must enclose/);
  });

  it("marks templates without variables as constant", () => {
    expect(parseTemplate("plain \\$5 text").constant).toBe(true);
    expect(parseTemplate("with $v").constant).toBe(false);
  });
});
