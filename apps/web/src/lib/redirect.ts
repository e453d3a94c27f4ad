/** Only same-site paths are followed after login; anything else (or a login/logout loop) goes home. */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/';
  }
  if (/^\/(login|logout)(?=$|[/?#])/.test(value)) return '/';
  return value;
}
