import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The page calls /api/... on its own origin; Vite passes those requests on to `autograms serve`
// (in development and in `vite preview`), so no CORS is needed. The server answers only its own
// host and origin (it keeps other web pages out): the proxy, the page's own front, presents the
// requests as the server's own.
const target = process.env.AUTOGRAMS_URL ?? "http://127.0.0.1:3000";
const api = { "/api": { target, changeOrigin: true, headers: { origin: target } } };

export default defineConfig({
  plugins: [react()],
  server: { proxy: api },
  preview: { proxy: api },
});
