/** A text field's value from submitted form data; '' when it is absent (or, impossibly here, a file). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
