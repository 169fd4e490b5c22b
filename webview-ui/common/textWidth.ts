/** The width in px of `text` in an element's font (bold: at weight 600, as headers are). */
export type TextWidth = (text: string, bold: boolean) => number;

/**
 * Measures text in `element`'s computed font with one canvas, so that a control or a column is
 * sized to what it shows in this theme's font and size, not guessed from a count of characters.
 */
export function canvasTextWidth(element: Element): TextWidth {
  const context = document.createElement('canvas').getContext('2d');
  const style = getComputedStyle(element);
  return (text, bold) => {
    if (!context) return text.length * parseFloat(style.fontSize);
    context.font = `${bold ? '600' : style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return context.measureText(text).width;
  };
}
