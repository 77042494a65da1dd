import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('testimonials')
@Index('ix_testimonials_featured_order', ['featured', 'displayOrder'])
export class Testimonial {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  /** The person's role, shown under the name. */
  @Column('text')
  title: string;

  @Column('text')
  content: string;

  @Column('text', { name: 'video_url', nullable: true })
  videoUrl: string | null;

  @Column('text', { name: 'image_url', nullable: true })
  imageUrl: string | null;

  @Column('int', { default: 5 })
  rating: number;

  @Column('boolean', { default: false })
  featured: boolean;

  @Column('int', { name: 'display_order', default: 0 })
  displayOrder: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
