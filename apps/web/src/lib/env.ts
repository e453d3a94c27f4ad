// Read at call time (not at import) so tests can stub them with vi.stubEnv.
export function isProductionBuild(): boolean {
  return import.meta.env.PROD === true;
}

export function isTestMode(): boolean {
  return import.meta.env.MODE === 'test';
}

export function testCredential(): string | undefined {
  const value = import.meta.env.VITE_TEST_CREDENTIAL;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
