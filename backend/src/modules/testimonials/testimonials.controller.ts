import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Req,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { AdminTestimonial } from '@contracts/admin';
import type { FeaturedTestimonial } from '@contracts/api-types';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { CreateTestimonialDto } from './dto/create-testimonial.dto';
import { UpdateTestimonialDto } from './dto/update-testimonial.dto';
import { Actor, TestimonialsService } from './testimonials.service';

const TestimonialId = () => new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException('The testimonial id is not valid') });

const actorOf = (admin: AdminPrincipal, req: FastifyRequest): Actor => ({ adminId: admin.adminId, clientIp: req.ip });

@ApiTags('testimonials')
@Controller('testimonials')
export class TestimonialsController {
  constructor(private readonly testimonials: TestimonialsService) {}

  /** The landing page's list; shared caches may keep it for a minute, so admin changes show within 60 s. */
  @Get('featured')
  @Header('cache-control', 'public, max-age=60')
  @ApiOkResponse({ description: 'Featured testimonials in display order' })
  featured(): Promise<FeaturedTestimonial[]> {
    return this.testimonials.featured();
  }

  @Get()
  @AdminOnly()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Every testimonial: featured ones first in display order, then the newest' })
  list(): Promise<AdminTestimonial[]> {
    return this.testimonials.list();
  }

  @Post()
  @AdminOnly()
  @ApiCreatedResponse({ description: 'Created; rating defaults to 5, a featured one goes last on the landing page' })
  @ApiBadRequestResponse({ description: 'A required field is empty, a URL is not http(s), or the rating is not 1–5' })
  create(@Body() dto: CreateTestimonialDto, @CurrentAdmin() admin: AdminPrincipal, @Req() req: FastifyRequest): Promise<AdminTestimonial> {
    return this.testimonials.create(dto, actorOf(admin, req));
  }

  @Patch(':id')
  @AdminOnly()
  @ApiOkResponse({ description: 'The testimonial as saved' })
  @ApiBadRequestResponse({ description: 'A field given empty, a URL that is not http(s), a rating that is not 1–5, or unknown fields' })
  @ApiNotFoundResponse({ description: 'No testimonial with this id' })
  update(
    @Param('id', TestimonialId()) id: string,
    @Body() dto: UpdateTestimonialDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
  ): Promise<AdminTestimonial> {
    return this.testimonials.update(id, dto, actorOf(admin, req));
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No testimonial with this id' })
  remove(@Param('id', TestimonialId()) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() req: FastifyRequest): Promise<void> {
    return this.testimonials.remove(id, actorOf(admin, req));
  }
}
