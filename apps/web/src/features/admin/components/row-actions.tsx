import { ActionSheet, type ActionSheetProps } from 'antd-mobile';

/**
 * What a tap on a row offers, for React.lazy behind OnFirstOpen: the sheet's animations
 * (react-spring, @use-gesture) load with the first tap rather than with the page.
 */
const RowActions = (props: ActionSheetProps) => <ActionSheet {...props} />;

export default RowActions;
