/*
 * The styles of the Mantine components the app uses (issue 33 item 9, decision 046), out of the
 * render-blocking CSS: the router loads this module beside every page's code and renders the
 * page once both have arrived (router.tsx `page`), so no component shows unstyled. Each file is
 * Mantine's layered copy (`@layer mantine`): the app's own CSS wins over it whatever order the
 * stylesheets arrive in. Mantine's order (that of @mantine/core/styles.css) is kept.
 * A component the app starts to use is added here; e2e/src/specs/first-paint.test.ts fails on
 * any Mantine class the built scripts use that no built stylesheet defines.
 */
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Flex.layer.css';
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/Accordion.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/CheckboxCard.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Grid.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/NavLink.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/RadioCard.layer.css';
import '@mantine/core/styles/RadioIndicator.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Slider.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/core/styles/Typography.layer.css';
