import { describe, expect, it } from 'vitest';
import { clampCrop, initialCrop, moveCrop, sourceSquare, zoomCrop } from './crop.ts';

describe('photo crop', () => {
  it('starts centred on the short side: a landscape photo shows its middle square', () => {
    const c = initialCrop(400, 200, 100);
    expect(sourceSquare(c)).toEqual({ sx: 100, sy: 0, side: 200 });
    const portrait = initialCrop(300, 600, 120);
    expect(sourceSquare(portrait)).toEqual({ sx: 0, sy: 150, side: 300 });
  });

  it('moves but never leaves a gap', () => {
    const c = initialCrop(400, 200, 100);
    // Dragging right by 1000 stops at the left edge of the image.
    expect(sourceSquare(moveCrop(c, 1000, 0))).toEqual({ sx: 0, sy: 0, side: 200 });
    expect(sourceSquare(moveCrop(c, -1000, 0))).toEqual({ sx: 200, sy: 0, side: 200 });
    // The short side already fills the viewport: no vertical movement.
    expect(moveCrop(c, 0, 40).y).toBe(0);
  });

  it('zooms around the centre, within 1× to 4×', () => {
    const c = initialCrop(400, 400, 100);
    const z = zoomCrop(c, 2);
    expect(sourceSquare(z)).toEqual({ sx: 100, sy: 100, side: 200 });
    expect(zoomCrop(c, 10).zoom).toBe(4);
    expect(sourceSquare(zoomCrop(c, 4))).toEqual({ sx: 150, sy: 150, side: 100 });
    // Zooming back out from a corner stays inside the image.
    const corner = moveCrop(z, 1000, 1000);
    expect(sourceSquare(corner)).toEqual({ sx: 0, sy: 0, side: 200 });
    expect(sourceSquare(zoomCrop(corner, 1))).toEqual({ sx: 0, sy: 0, side: 400 });
    expect(clampCrop({ ...c, zoom: 0.2 }).zoom).toBe(1);
  });
});
