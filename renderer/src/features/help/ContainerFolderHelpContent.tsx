/** The text of the container-folder help: the layout Import folder… takes, the runner's contract, the limits. */

const TREE = `word-count/
├── manifest.json   what the tool is: name, version, parameters… (becomes tool.json)
├── Dockerfile      how its image is built
└── runner.sh       the program the image runs (any language the image has)`;

const DOCKERFILE = `FROM alpine:3.20
COPY runner.sh /tool/runner.sh
ENTRYPOINT ["/bin/sh", "/tool/runner.sh"]`;

const RUNNER = `#!/bin/sh
# $1 is base64 of {"params": {...}, "settings": {...}, "telemetry": {...}}
payload=$(printf '%s' "$1" | base64 -d)
text=$(printf '%s' "$payload" | sed -n 's/.*"text":"\\([^"]*\\)".*/\\1/p')
printf '{"text":"%s words"}\\n' "$(printf '%s' "$text" | wc -w)"`;

const MANIFEST = `{
  "name": "Word Count",
  "version": "1.2.0",
  "description": "Counts the words of a text",
  "parameters": [
    { "name": "text", "type": "string", "description": "The text", "required": true },
    { "name": "unique", "type": "bool", "default": false }
  ],
  "output": { "card": { "title": "{{text}}", "accent_color": "#2a9d8f" } },
  "sandbox": { "memory": "64m", "network": "none", "read_only": true },
  "constraints": { "timeout_seconds": 15, "max_output_bytes": 4096 },
  "config_schema": { "properties": { "stats_api_key": { "type": "string", "secret": true } } }
}`;

export default function ContainerFolderHelpContent({ onClose }: { onClose(): void }) {
  return (
    <article className="help" data-testid="container-help-content">
      <h2 className="modal-title">The container-tool folder</h2>
      <p>
        A container tool is a folder Docker builds into an image; each call runs a fresh, sandboxed container of it. <strong>Import folder…</strong> takes such
        a folder (its files are copied beside the new tool&apos;s <code>tool.json</code>); the tool editor writes the same files there, and builds them.
      </p>
      <pre className="code-block">{TREE}</pre>

      <h3>manifest.json</h3>
      <p className="muted">Read once, by Import folder…, to make the tool; after that the tool form is the truth. snake_case and camelCase keys both work.</p>
      <table className="kv help-table">
        <tbody>
          <tr>
            <th scope="row">
              <code>name</code>, <code>version</code>
            </th>
            <td>the tool&apos;s slug (made from the name) and version; name is required</td>
          </tr>
          <tr>
            <th scope="row">
              <code>title</code>, <code>description</code>, <code>tags</code>, <code>safety</code>
            </th>
            <td>display name, what agents read, tags, and readOnly | sideEffecting | privileged</td>
          </tr>
          <tr>
            <th scope="row">
              <code>parameters</code>
            </th>
            <td>
              <code>
                [{'{'}name, type, description, required, default, enum{'}'}]
              </code>{' '}
              → the argument schema
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>output</code>
            </th>
            <td>
              <code>card</code> (title with <code>{'{{param}}'}</code>, accent and background colours, or <code>false</code>) and <code>schema</code> → the
              output schema (or <code>returns</code>)
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>sandbox</code>
            </th>
            <td>
              <code>memory</code> (256 MB by default), <code>network</code> none | bridge, <code>read_only</code>, <code>cpus</code>
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>constraints</code>
            </th>
            <td>
              <code>timeout_seconds</code>, <code>max_output_bytes</code>, <code>max_calls_per_minute</code>
            </td>
          </tr>
          <tr>
            <th scope="row">
              <code>config_schema</code>
            </th>
            <td>
              entries marked secret (<code>secret: true</code>, <code>format: &quot;password&quot;</code>) become secrets the tool needs (set them in Secrets;
              names in UPPER_SNAKE_CASE); the others become settings with their defaults. Both reach the runner in <code>settings</code>.
            </td>
          </tr>
        </tbody>
      </table>
      <pre className="code-block">{MANIFEST}</pre>

      <h3>Dockerfile and runner</h3>
      <p>
        Docker runs the image with <strong>one argument</strong>: base64 of <code>{'{"params": …, "settings": …, "telemetry": …}'}</code>. The runner prints{' '}
        <strong>one JSON object</strong> on stdout: <code>{'{"text"?, "html"?, "title"?, "error"?}'}</code> (<code>html</code> is shown as the card;{' '}
        <code>error</code> fails the call with that message). stderr is for short diagnostics.
      </p>
      <div className="help-columns">
        <pre className="code-block">{DOCKERFILE}</pre>
        <pre className="code-block">{RUNNER}</pre>
      </div>

      <h3>Sandbox and limits</h3>
      <ul>
        <li>
          No network unless the tool asks for <code>bridge</code>; read-only root with a 16 MB <code>/tmp</code>; 256 MB memory, 1 CPU, 64 processes; every
          capability dropped; user 65534 when the image names none.
        </li>
        <li>9 s per call unless the tool sets a timeout; stdout and stderr are capped at 100 KB each.</li>
        <li>The folder may hold 64 MB in 5,000 files, 32 folders deep; one file edited in the app up to 16 MB.</li>
        <li>
          Left out of the tool folder: <code>.env</code> files (credentials belong in Secrets), <code>__pycache__/</code> and <code>.pyc</code>; links are never
          followed; a <code>tool.json</code> in the folder is replaced by the one made from the manifest.
        </li>
      </ul>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </article>
  );
}
