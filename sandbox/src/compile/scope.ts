interface LocalBinding {
  slot: number;
  constant: boolean;
}

/** The names an arrow function binds, by block, and the slots of its frame. */
export class FunctionScope {
  slots = 0;
  readonly blocks: Map<string, LocalBinding>[] = [new Map()];
  constructor(readonly parent: FunctionScope | null) {}
}

/** Where a local name lives: how many frames up, and which slot. */
export interface Resolved {
  hops: number;
  slot: number;
  constant: boolean;
}
