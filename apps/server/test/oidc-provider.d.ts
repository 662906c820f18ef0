/** oidc-provider ships no types; the tests use a handful of its calls (see oidc-test-provider.ts). */
declare module 'oidc-provider' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const Provider: any;
  export default Provider;
}
