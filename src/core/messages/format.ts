// The formatter lives with the webviews' shared code, which renders the same ICU texts.
export { formatText, parameterNamesOf } from '../../shared/messages/format';
