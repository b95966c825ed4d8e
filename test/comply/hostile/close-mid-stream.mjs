// Hostile stdio server: writes half of a JSON-RPC answer, then exits.
process.stdin.once('data', () => {
  process.stdout.write('{"jsonrpc":"2.0","id":990001,"result":{"supportedVer', () => process.exit(0));
});
