/**
 * "How a container folder is laid out": a link that opens the help dialog, from the import entry
 * and from the container editor. The dialog's text is loaded when first opened, so the screens
 * that carry the link do not carry the text.
 */
import { lazy, Suspense, useState } from 'react';
import { Modal } from '../../components/Dialog.js';
import { Loading } from '../../components/States.js';
import './ContainerFolderHelp.css';

const HelpContent = lazy(() => import('./ContainerFolderHelpContent.js'));

export function ContainerHelpButton({
  label = 'Folder layout',
  className = 'link-btn',
  testId = 'container-help',
  ariaLabel,
  title,
}: {
  label?: string;
  className?: string;
  testId?: string;
  ariaLabel?: string;
  title?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        aria-label={ariaLabel}
        title={title}
        data-testid={testId}
      >
        {label}
      </button>
      <Modal open={open} onClose={() => setOpen(false)} title="The container-tool folder" className="modal-wide help-dialog" testId="container-help-dialog">
        <Suspense fallback={<Loading />}>
          <HelpContent onClose={() => setOpen(false)} />
        </Suspense>
      </Modal>
    </>
  );
}
