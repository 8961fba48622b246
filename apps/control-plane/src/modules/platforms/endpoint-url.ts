/**
 * A hypervisor API endpoint as the platform records it: `https://host[:port]`, host in lower case, no
 * default port, no trailing slash. Two spellings of one endpoint normalise to the same text, which is
 * what makes "registered once per organisation" hold.
 */
export type EndpointUrl = { readonly url: string } | { readonly problem: string };

export function parseEndpointUrl(text: string): EndpointUrl {
  if (!URL.canParse(text)) return { problem: 'must be a URL like https://pve.example.com:8006' };
  const url = new URL(text);
  if (url.protocol !== 'https:') return { problem: 'must be an https:// URL' };
  if (url.username !== '' || url.password !== '') return { problem: 'must not carry credentials' };
  if (url.hostname === '') return { problem: 'must name a host' };
  if (
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search !== '' ||
    url.hash !== '' ||
    /[?#]/.test(text)
  ) {
    return {
      problem: 'must be only a scheme, a host and an optional port, without a path, query or fragment',
    };
  }
  // URL already lower-cases the host and drops the default port of https.
  return { url: `${url.protocol}//${url.host}` };
}
