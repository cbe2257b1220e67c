import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { scrollToSection } from '../../components/site/SiteHeader.tsx';
import { SiteLayout } from '../../components/site/SiteLayout.tsx';
import { Hero } from './Hero.tsx';
import {
  BusinessTypes,
  CallToAction,
  CommandCenter,
  Features,
  SecurityBadges,
  StatsStrip,
  Testimonials,
} from './Sections.tsx';

// The landing page (SPEC section 2): hero, features, call to action, financial command
// center, testimonials, business types, security badges, footer. It imports nothing from
// the private app; the demo loads lazily.

const LandingPage = () => {
  const { hash } = useLocation();
  // Arriving from another page's "Features" link (/#features) lands on that section.
  useEffect(() => {
    if (hash.length > 1) scrollToSection(decodeURIComponent(hash.slice(1)));
  }, [hash]);
  return (
    <SiteLayout>
      <Hero />
      <StatsStrip />
      <Features />
      <CallToAction />
      <CommandCenter />
      <Testimonials />
      <BusinessTypes />
      <SecurityBadges />
    </SiteLayout>
  );
};

export default LandingPage;
