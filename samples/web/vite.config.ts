import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The page calls /api/... on its own origin; Vite passes those requests on to `autograms serve`
// (in development and in `vite preview`), so no CORS is needed.
const api = { "/api": process.env.AUTOGRAMS_URL ?? "http://127.0.0.1:3000" };

export default defineConfig({
  plugins: [react()],
  server: { proxy: api },
  preview: { proxy: api },
});
