/// <reference path="./mcp-tools.d.ts" />
// A shop assistant whose tools come from an MCP server: `.mcp.json` names the server `shop`, and
// its tools are imported from `mcp:shop` (the server's `in-stock` as `in_stock`). The declarations
// in mcp-tools.d.ts are written by `autograms mcp-types --mcp-config samples/shop/.mcp.json`.
import { Autogram, chat, chatExact, setPrompt } from "@autograms/runtime";
import { in_stock, price_of } from "mcp:shop";

export default class Shop extends Autogram {
  teaPrice = 0;

  main() {
    setPrompt("You are the assistant of a small tea shop. Look prices and stock up with the tools; never guess.");
    // Called from code: the tool's structured content is the value.
    this.teaPrice = price_of({ item: "tea" }).price;
    chatExact(`Welcome! Tea is ${this.teaPrice} EUR today. What would you like?`, { name: "greet" });
    while (true) {
      // Offered to the model: it calls them natively, under the server's own names.
      chat("Answer the customer.", { name: "answer", tools: [price_of, in_stock] });
    }
  }
}
