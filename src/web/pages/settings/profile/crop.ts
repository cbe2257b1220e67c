// The square crop of the Profile photo, as plain numbers: the image is shown scaled to cover a
// square viewport (zoom 1 = its short side fills it) and moved by its top-left corner; it may
// never leave a gap in the viewport. `sourceSquare` is the part of the original image the
// viewport shows, which the canvas draws into the uploaded 256×256 square.

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

export type Crop = {
  /** The image's natural size. */
  width: number;
  height: number;
  /** The viewport's side, in CSS pixels. */
  viewport: number;
  zoom: number;
  /** Where the image's top-left corner sits in the viewport (≤ 0). */
  x: number;
  y: number;
};

/** Image pixels to viewport pixels at this zoom. */
export const scaleOf = (c: Pick<Crop, 'width' | 'height' | 'viewport' | 'zoom'>) =>
  (c.viewport / Math.min(c.width, c.height)) * c.zoom;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The crop moved back inside the image, so the viewport is always covered. */
export const clampCrop = (c: Crop): Crop => {
  const zoom = clamp(c.zoom, MIN_ZOOM, MAX_ZOOM);
  const s = scaleOf({ ...c, zoom });
  return {
    ...c,
    zoom,
    x: clamp(c.x, c.viewport - c.width * s, 0),
    y: clamp(c.y, c.viewport - c.height * s, 0),
  };
};

/** The image at zoom 1, centred. */
export const initialCrop = (width: number, height: number, viewport: number): Crop => {
  const s = scaleOf({ width, height, viewport, zoom: 1 });
  return { width, height, viewport, zoom: 1, x: (viewport - width * s) / 2, y: (viewport - height * s) / 2 };
};

/** Moved by (dx, dy) viewport pixels. */
export const moveCrop = (c: Crop, dx: number, dy: number) => clampCrop({ ...c, x: c.x + dx, y: c.y + dy });

/** A new zoom, keeping the image point under the viewport's centre where it is. */
export const zoomCrop = (c: Crop, zoom: number): Crop => {
  const before = scaleOf(c);
  const next = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
  const after = scaleOf({ ...c, zoom: next });
  const centre = c.viewport / 2;
  // The image point at the centre, in image pixels, stays at the centre.
  const ix = (centre - c.x) / before;
  const iy = (centre - c.y) / before;
  return clampCrop({ ...c, zoom: next, x: centre - ix * after, y: centre - iy * after });
};

/** The square of the original image the viewport shows: its corner and side, in image pixels. */
export const sourceSquare = (c: Crop) => {
  const s = scaleOf(c);
  const side = Math.min(c.viewport / s, c.width, c.height);
  return {
    sx: clamp(-c.x / s, 0, c.width - side),
    sy: clamp(-c.y / s, 0, c.height - side),
    side,
  };
};
