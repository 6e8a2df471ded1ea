/** The headers above the tool list: one bundle's (switch, edit, export, delete) or All tools' (import, export). */
import { useDeleteBundle, useToggleBundle } from '../../../api/mutations.js';
import { useNav } from '../../../lib/nav.js';
import { Switch } from '../../../components/Switch.js';
import { Badge } from '../../../components/States.js';
import { useConfirm } from '../../../components/Dialog.js';
import { plural } from '../../../lib/format.js';
import type { BundleView } from '../../../../../shared/types.js';
import { useTransfer } from '../../transfer/TransferProvider.js';
import { ContainerHelpButton } from '../../help/ContainerFolderHelp.js';
import { MenuButton } from '../../../components/Menu.js';
import { BundleAgentCost } from './BundleAgentCost.js';
import { ownerOf } from '../../../tool-types/slot-registry.js';

export function BundleHeader({ bundle }: { bundle: BundleView }) {
  const { go } = useNav();
  const toggle = useToggleBundle();
  const del = useDeleteBundle();
  const confirm = useConfirm();
  const transfer = useTransfer();
  return (
    <header className="page-header">
      <div className="page-title-row">
        <h1 className="page-title">{bundle.displayName || bundle.slug}</h1>
        {bundle.isBuiltIn && <Badge tone="info">built-in</Badge>}
        <span className="mono muted">{bundle.slug}</span>
        <div className="page-actions">
          <Switch
            checked={bundle.isEnabled}
            showLabel
            label="Enabled"
            text={bundle.isEnabled ? 'Enabled' : 'Disabled'}
            onChange={(v) => toggle.mutate({ bundle, isEnabled: v })}
            testId="bundle-header-switch"
          />
          <MenuButton
            label="Export"
            testId="export-bundle"
            disabled={transfer.busy !== null}
            items={[
              {
                label: 'Download as ZIP',
                hint: 'bundle.json and every tool; secrets as names only',
                onSelect: () => transfer.exportBundles([bundle]),
                testId: 'export-bundle-zip',
              },
              {
                label: 'Copy as OpenAI functions',
                hint: 'the enabled tools, as JSON for an agent',
                onSelect: () => transfer.copyOpenAiFunctions([bundle]),
                testId: 'copy-openai-bundle',
              },
            ]}
          />
          {!bundle.isBuiltIn && (
            <>
              <button type="button" className="btn" onClick={() => go({ name: 'bundleEdit', bundleID: bundle.bundleID })} data-testid="edit-bundle">
                Edit bundle
              </button>
              <button
                type="button"
                className="btn btn-danger-quiet"
                data-testid="delete-bundle"
                onClick={async () => {
                  const ok = await confirm({
                    title: 'Move bundle to Trash?',
                    message: `${bundle.displayName || bundle.slug} and its ${plural(bundle.toolCount, 'tool')} stop being offered to agents. You can restore it from Trash.`,
                    confirmLabel: 'Move to Trash',
                    danger: true,
                  });
                  if (ok) {
                    del.mutate(bundle);
                    go({ name: 'tools', bundleID: null });
                  }
                }}
              >
                Delete
              </button>
              {/* A bundle a tool type owns (an upstream server's) gets its tools from that type (its Sync), never by hand. */}
              {!ownerOf(bundle) && (
                <button
                  type="button"
                  className="btn btn-primary"
                  onClick={() => go({ name: 'toolNew', bundleID: bundle.bundleID })}
                  disabled={!bundle.isEnabled}
                  title={bundle.isEnabled ? undefined : 'Switch the bundle on to add tools'}
                  data-testid="new-tool"
                >
                  New tool
                </button>
              )}
            </>
          )}
        </div>
      </div>
      {bundle.description && <p className="page-sub">{bundle.description}</p>}
      <BundleAgentCost bundle={bundle} />
      {!bundle.isEnabled && (
        <p className="notice">This bundle is off: its tools are not offered to agents, and its tools cannot be edited until it is switched on.</p>
      )}
    </header>
  );
}

export function AllToolsHeader() {
  const transfer = useTransfer();
  const idle = transfer.busy === null;
  return (
    <header className="page-header">
      <div className="page-title-row">
        <h1 className="page-title" id="tools-title">
          All tools
        </h1>
        <div className="page-actions">
          <div className="btn-group" role="group" aria-label="Import">
            <button
              type="button"
              className="btn"
              onClick={transfer.pickFiles}
              disabled={!idle}
              title="A ZIP export, a SKILL.md or an OpenAPI document (.json, .yaml)"
              data-testid="import-files"
            >
              Import…
            </button>
            <button
              type="button"
              className="btn"
              onClick={transfer.pickFolder}
              disabled={!idle}
              title="A container-tool folder (manifest.json + Dockerfile + runner)"
              data-testid="import-folder"
            >
              Import folder…
            </button>
            <ContainerHelpButton
              label="?"
              className="btn btn-help"
              ariaLabel="How a container-tool folder is laid out"
              title="How a container-tool folder is laid out (manifest.json, Dockerfile, runner)"
              testId="import-folder-help"
            />
          </div>
          <MenuButton
            label="Export"
            testId="export-bundles"
            disabled={!idle}
            items={[
              { label: 'Download bundles as ZIP…', hint: 'all or some bundles, in one archive', onSelect: transfer.chooseExport, testId: 'export-bundles-zip' },
              {
                label: 'Copy all as OpenAI functions',
                hint: 'every enabled tool, as JSON for an agent',
                onSelect: () => transfer.copyOpenAiFunctions(null),
                testId: 'copy-openai-all',
              },
            ]}
          />
        </div>
      </div>
      <p className="page-sub">
        Every tool across all bundles, including switched-off ones. Drop a ZIP, a folder, a SKILL.md or an OpenAPI document anywhere to import it.
      </p>
    </header>
  );
}
