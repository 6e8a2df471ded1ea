/** Under a container tool's image name: whether the Docker engine has that image, and its size. */
import { errorMessage } from '../../api/errors.js';
import { useToolImage } from '../../api/queries.js';
import { formatBytes } from '../../../../shared/format.js';
import type { ToolView } from '../../../../shared/types.js';

export function NamedImageStatus({ tool }: { tool: ToolView }) {
  const image = useToolImage(tool);
  if (image.isPending) return null;
  if (image.isError) return <div className="field-hint">{errorMessage(image.error)}</div>;
  const info = image.data.image;
  return (
    <div className="field-hint" data-testid="image-status">
      {info ? (
        <>
          On the Docker engine: <strong>{formatBytes(info.sizeBytes)}</strong>.
        </>
      ) : (
        <>
          Not on the Docker engine; pull or load it there (<code>docker pull {image.data.ref}</code>).
        </>
      )}
    </div>
  );
}
