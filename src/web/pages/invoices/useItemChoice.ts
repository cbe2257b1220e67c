import type { EditorLine } from './editorState.ts';
import { priceText } from './editorState.ts';
import { useItems } from './invoicesApi.ts';

// Choosing an item on a document line (an invoice's, a bill's, a supplier credit's): the
// company's items that are not archived, and what choosing one does to the line — its name,
// price and tax fill in (the line's account stays); "Free text" clears the item only.

export const useItemChoice = (
  update: (key: string, patch: Partial<EditorLine>) => void,
  currency: string,
) => {
  const items = useItems();
  const chooseItem = (key: string, itemId: string) => {
    const item = items.data?.find((i) => i.id === itemId);
    update(
      key,
      item
        ? {
            itemId,
            description: item.name,
            unitPrice: priceText(item.unitPrice, currency),
            taxRateIds: item.taxRateId ? [item.taxRateId] : [],
          }
        : { itemId: '' },
    );
  };
  return { items: items.data ?? [], chooseItem };
};
