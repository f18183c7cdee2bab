import { NetworkError } from './errors';
import { formatMegabytes, type HttpTransport, type RawResponse } from './http';

/** The code of an attempt that fetch could not make: no answer was read, and the reason is not told to a page. */
export const FETCH_FAILED = 'EFETCH';

/**
 * The service's calls over `fetch`, for the extension in a browser (VS Code for the Web), where Node's http
 * does not exist. HttpClient keeps its retries, time limit and error shapes; this only sends one attempt.
 *
 * A browser does not tell a page why a request failed: a service that does not allow cross-origin calls
 * (its CORS preflight answer), a host that cannot be reached and a refused certificate all end as the same
 * TypeError ("Failed to fetch"). That is reported as what it may be and what can do the call instead, never
 * as the raw text; the attempt is not repeated (whatever the cause, it would fail the same way), and a PUT
 * or DELETE counts as possibly delivered.
 */
export function fetchTransport(fetchImpl: typeof fetch = (input, init) => fetch(input, init)): HttpTransport {
  return async ({ url, method, headers, payload, signal, maxBytes, what }) => {
    let response: Response;
    try {
      response = await fetchImpl(url.href, { method, headers, body: payload, signal, redirect: 'follow', credentials: 'omit' });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new NetworkError(
        `${what} could not be sent from the browser to ${url.origin}: the service may not accept calls from a web page (CORS), or it cannot be reached from here. ` +
          'The desktop extension and the policyset CLI make this call without a browser.',
        FETCH_FAILED,
        method !== 'GET',
      );
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new NetworkError(`The answer to ${what} is larger than ${formatMegabytes(maxBytes)}; not read`, 'ETOOLARGE', true);
    }
    const { text: body, bytes } = await readText(response, maxBytes, what, signal);
    const answerHeaders: RawResponse['headers'] = {};
    response.headers.forEach((value, name) => {
      answerHeaders[name.toLowerCase()] = value;
    });
    return { status: response.status, headers: answerHeaders, body, bytes };
  };
}

/** The body as text, stopped once it is larger than allowed. */
async function readText(response: Response, maxBytes: number, what: string, signal: AbortSignal): Promise<{ text: string; bytes: number }> {
  if (!response.body) return { text: '', bytes: 0 };
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let size = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new NetworkError(`The answer to ${what} is larger than ${formatMegabytes(maxBytes)}; not read`, 'ETOOLARGE', true);
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (error instanceof NetworkError || signal.aborted) throw error;
    throw new NetworkError(`The connection was dropped while the answer to ${what} was read`, 'ECONNRESET', true);
  }
  return { text: text + decoder.decode(), bytes: size };
}
