/**
 * A transition target while lowering: a node name, or a Label for a node not made yet (the
 * statement after this one, a loop's exit). Labels are bound once and resolved at the end.
 */
export class Label {
  private target: Target | undefined;

  bind(target: Target): void {
    if (this.target !== undefined) throw new Error("label bound twice");
    this.target = target;
  }

  resolve(): string {
    const seen = new Set<Label>();
    let current: Target | undefined = this;
    while (current instanceof Label) {
      if (seen.has(current) || current.target === undefined) throw new Error("transition target left unresolved");
      seen.add(current);
      current = current.target;
    }
    return current;
  }
}

export type Target = string | Label;

export function resolve(target: Target): string {
  return target instanceof Label ? target.resolve() : target;
}
