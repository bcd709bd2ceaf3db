// Public API of @autograms/compiler (DESIGN §3).
export {};
