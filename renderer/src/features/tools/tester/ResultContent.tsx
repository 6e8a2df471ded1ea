/**
 * What an upstream MCP server's result holds besides its value: images shown (only png, jpeg, gif
 * and webp, as a data URL of the base64 the server sent), embedded resources (text shown, a blob
 * as a download), links to resources, and MCP Apps (`ui://` resources) named with their uri —
 * the app itself is not run here.
 */
import { useEffect, useMemo } from 'react';
import type { ResultContent as Block } from '../../../../../shared/types.js';
import { plural } from '../../../lib/format.js';
import './ResultContent.css';

const SHOWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function bytesOfBase64(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

function isApp(uri: string): boolean {
  return uri.startsWith('ui://');
}

function BlobDownload({ uri, mimeType, blob }: { uri: string; mimeType: string; blob: string }) {
  const url = useMemo(() => {
    if (!BASE64.test(blob)) return undefined;
    const bin = atob(blob);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  }, [blob, mimeType]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const name = uri.split(/[/:]/).filter(Boolean).pop() || 'resource';
  if (!url) return <p className="field-warning">The server sent a blob that is not base64; it is not offered.</p>;
  return (
    <a className="btn btn-small" href={url} download={name} data-testid="content-download">
      Download {name} <span className="muted">({plural(bytesOfBase64(blob), 'byte')})</span>
    </a>
  );
}

function ContentBlock({ block }: { block: Block }) {
  if (block.type === 'image') {
    if (!SHOWN_IMAGES.has(block.mimeType) || !BASE64.test(block.data)) {
      return <p className="muted">An image of type {block.mimeType} (not shown: only PNG, JPEG, GIF and WebP are).</p>;
    }
    return (
      <figure className="content-image">
        <img src={`data:${block.mimeType};base64,${block.data}`} alt={`Image from the server (${block.mimeType})`} data-testid="content-image" />
        <figcaption className="muted">
          {block.mimeType} · {plural(bytesOfBase64(block.data), 'byte')}
        </figcaption>
      </figure>
    );
  }
  if (block.type === 'audio') {
    return (
      <p className="muted">
        Audio ({block.mimeType}, {plural(bytesOfBase64(block.data), 'byte')}): not played here.
      </p>
    );
  }
  if (block.type === 'resource_link') {
    return (
      <p data-testid={isApp(block.uri) ? 'content-app' : 'content-link'}>
        {isApp(block.uri) ? 'An MCP App: ' : 'A link to a resource: '}
        <code>{block.uri}</code>
        {block.title || block.name ? <> — {block.title || block.name}</> : null}
        {block.mimeType ? <span className="muted"> · {block.mimeType}</span> : null}
        {block.description ? <span className="muted"> · {block.description}</span> : null}
      </p>
    );
  }
  const r = block.resource;
  if (isApp(r.uri)) {
    return (
      <p data-testid="content-app">
        An MCP App: <code>{r.uri}</code>
        {r.mimeType ? <span className="muted"> · {r.mimeType}</span> : null}
        <span className="muted"> · an agent&apos;s client that hosts MCP Apps shows it; the tester does not run it.</span>
      </p>
    );
  }
  return (
    <div className="content-resource" data-testid="content-resource">
      <p>
        A resource: <code>{r.uri}</code>
        {r.mimeType ? <span className="muted"> · {r.mimeType}</span> : null}
      </p>
      {r.text !== undefined ? <pre className="content-text">{r.text}</pre> : null}
      {r.blob !== undefined ? <BlobDownload uri={r.uri} mimeType={r.mimeType ?? 'application/octet-stream'} blob={r.blob} /> : null}
    </div>
  );
}

export function ResultContent({ content }: { content: Block[] }) {
  return (
    <div className="result-content" data-testid="result-content">
      <h3 className="report-heading">Content from the server</h3>
      {content.map((block, i) => (
        <ContentBlock key={i} block={block} />
      ))}
    </div>
  );
}
