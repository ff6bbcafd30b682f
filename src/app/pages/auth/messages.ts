/** The texts of the auth screens, word for word from the spec (sections 2, 4, 5 and 8). */
export const AuthText = {
  loginTitle: 'Login',
  loginWelcome: 'Welcome back! Please enter your details.',
  signIn: 'Sign in',
  signUp: 'Sign up',
  forgotPassword: 'Forgot password',
  verified: 'Account verified, please login.',
  verifyFailed: 'Account verification failed, please try again.',
  accountCreated: 'Account Created - Check your email to verify your account.',
  registerTitle: 'Create an account',
  registerIntro: "Let's get started your 30-day free trial.",
  createAccount: 'Create account',
  acceptTerms: 'Please read and agree to the Terms and Conditions',
  chooseRole: 'Please choose your role',
  fillAllFields: 'Please fill out all fields',
  passwordsDoNotMatch: 'Passwords do not match.',
  resetTitle: 'Reset your password',
  update: 'Update',
  /** not in the spec: the note on /login after a successful reset, when the server sends no message */
  passwordUpdated: 'Your password has been updated. Please login with your new password.',
} as const;

/** The company sent when the form leaves it empty (spec section 5). */
export const UNKNOWN_COMPANY = 'Unknown';
