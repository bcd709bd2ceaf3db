// The tools of the MCP servers, as agent code imports them. Written by `autograms mcp-types`: do not edit.

declare module "mcp:shop" {
  import type { DefinedTool } from "@autograms/runtime";
  /** The price of an item of the shop, in euros. */
  export const price_of: DefinedTool<{
    /** the item, e.g. tea */
    item: string;
  }, {
    item: string;
    price: number;
  }>;
  /** How many of an item the shop has. (the server's tool 'in-stock') */
  export const in_stock: DefinedTool<{
    item: string;
  }, string>;
}
