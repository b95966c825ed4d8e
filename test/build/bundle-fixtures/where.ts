// a module of test/build/test-bundle.test.ts: its import.meta as seen from inside a bundle
export const where = { dirname: import.meta.dirname, filename: import.meta.filename, url: import.meta.url };
