import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { PROFILE_PHOTO_MESSAGES, PROFILE_PHOTO_SIZE } from '../../../../shared/profile-photo.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Alert } from '../../../components/ui/Card.tsx';
import { FormActions } from '../../../components/ui/Form.tsx';
import { MAX_ZOOM, MIN_ZOOM, type Crop, initialCrop, moveCrop, sourceSquare, zoomCrop } from './crop.ts';

// Cropping the chosen image to a square in the browser: drag it (or the arrow keys) to move,
// the Zoom slider (or + and −) to zoom, then the visible square is drawn into a 256×256 PNG.

const VIEWPORT = 240;
const STEP = 10;

/** The visible square of `img` as a PNG of PROFILE_PHOTO_SIZE square. */
const renderSquare = (img: HTMLImageElement, crop: Crop) =>
  new Promise<Blob>((resolve, reject) => {
    const canvas = document.createElement('canvas');
    canvas.width = PROFILE_PHOTO_SIZE;
    canvas.height = PROFILE_PHOTO_SIZE;
    const context = canvas.getContext('2d');
    if (!context) return reject(new Error(PROFILE_PHOTO_MESSAGES.unreadable));
    const { sx, sy, side } = sourceSquare(crop);
    context.imageSmoothingQuality = 'high';
    context.drawImage(img, sx, sy, side, side, 0, 0, PROFILE_PHOTO_SIZE, PROFILE_PHOTO_SIZE);
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error(PROFILE_PHOTO_MESSAGES.unreadable))),
      'image/png',
    );
  });

export const PhotoCropper = ({
  file,
  onCancel,
  onCropped,
}: {
  file: File;
  onCancel: () => void;
  /** Uploads the square; a thrown error is shown here. */
  onCropped: (square: Blob) => Promise<void>;
}) => {
  const imgRef = useRef<HTMLImageElement | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [crop, setCrop] = useState<Crop | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    setCrop(null);
    setError(null);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const from = drag.current;
    if (!from || !crop) return;
    drag.current = { x: event.clientX, y: event.clientY };
    setCrop(moveCrop(crop, event.clientX - from.x, event.clientY - from.y));
  };
  const endDrag = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!crop) return;
    const step = event.shiftKey ? STEP * 4 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [step, 0],
      ArrowRight: [-step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    const move = moves[event.key];
    if (move) setCrop(moveCrop(crop, move[0], move[1]));
    else if (event.key === '+' || event.key === '=') setCrop(zoomCrop(crop, crop.zoom + 0.1));
    else if (event.key === '-' || event.key === '_') setCrop(zoomCrop(crop, crop.zoom - 0.1));
    else return;
    event.preventDefault();
  };

  const save = async () => {
    if (!crop || !imgRef.current || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onCropped(await renderSquare(imgRef.current, crop));
    } catch (e) {
      setError(e instanceof Error ? e.message : PROFILE_PHOTO_MESSAGES.unreadable);
    } finally {
      setBusy(false);
    }
  };

  const scale = crop ? (VIEWPORT / Math.min(crop.width, crop.height)) * crop.zoom : 1;
  return (
    <div className="space-y-4">
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex justify-center">
        <div
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the crop area is moved with the arrow keys
          tabIndex={0}
          role="application"
          aria-roledescription="crop area"
          aria-label="Photo position"
          aria-describedby="photo-crop-hint"
          data-testid="photo-crop-area"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onKeyDown={onKeyDown}
          className="relative cursor-move touch-none overflow-hidden rounded-lg bg-slate-100 outline-none focus-visible:ring-4 focus-visible:ring-brand-500/50 dark:bg-slate-800"
          style={{ width: VIEWPORT, height: VIEWPORT }}
        >
          {url ? (
            <img
              ref={imgRef}
              src={url}
              alt="Crop preview"
              draggable={false}
              onLoad={(e) =>
                setCrop(initialCrop(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight, VIEWPORT))
              }
              onError={() => setError(PROFILE_PHOTO_MESSAGES.unreadable)}
              className="absolute max-w-none select-none"
              style={
                crop
                  ? { left: crop.x, top: crop.y, width: crop.width * scale, height: crop.height * scale }
                  : { visibility: 'hidden' }
              }
            />
          ) : null}
          {/* The round frame the avatar shows; the square outside it is kept in the upload. */}
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_999px_rgba(15,23,42,0.45)]"
          />
        </div>
      </div>
      <p id="photo-crop-hint" className="text-center text-xs text-slate-500 dark:text-slate-400">
        Drag the photo, or focus it and use the arrow keys, to move it; + and − or the slider to zoom.
      </p>
      <label className="block space-y-1.5">
        <span className="block text-sm font-medium text-slate-700 dark:text-slate-200">Zoom</span>
        <input
          type="range"
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.01}
          value={crop?.zoom ?? 1}
          disabled={!crop}
          onChange={(e) => crop && setCrop(zoomCrop(crop, Number(e.target.value)))}
          aria-valuetext={`${Math.round((crop?.zoom ?? 1) * 100)}%`}
          className="block h-11 w-full accent-brand-600"
        />
      </label>
      <FormActions>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={() => void save()} busy={busy} disabled={!crop}>
          {busy ? 'Saving...' : 'Save photo'}
        </Button>
      </FormActions>
    </div>
  );
};
